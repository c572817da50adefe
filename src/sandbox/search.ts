import { stableHash } from './util.js';

/**
 * Deterministic web results: the same query and filters always give the same list. Shared by
 * `/api/web`, the `:online` suffix and (later) the data API's web search.
 */
export interface SearchOptions {
  count?: number;
  includeDomains?: string[];
  excludeDomains?: string[];
  fromDate?: string;
  toDate?: string;
}

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  domain: string;
  publishedDate: string;
  score: number;
}

const DOMAINS = [
  'en.wikipedia.org',
  'developer.mozilla.org',
  'github.com',
  'arxiv.org',
  'stackoverflow.com',
  'news.ycombinator.com',
  'docs.python.org',
  'nature.com',
  'bbc.co.uk',
  'medium.com',
];
const DAY_MS = 86_400_000;
const LATEST = Date.UTC(2025, 5, 1);

export function slugify(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|(?<!-)-+$/g, '')
    .slice(0, 60);
  return slug || 'query';
}

const normalizeDomain = (d: string): string =>
  d
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .split('/')[0]!;

export function search(query: string, options: SearchOptions = {}): SearchResult[] {
  const count = options.count ?? 5;
  const exclude = new Set((options.excludeDomains ?? []).map(normalizeDomain));
  const include = (options.includeDomains ?? []).map(normalizeDomain).filter((d) => d && !exclude.has(d));
  let pool =
    include.length > 0
      ? include
      : DOMAINS.filter((d) => !exclude.has(d) && ![...exclude].some((e) => d.endsWith(`.${e}`)));
  if (pool.length === 0) return [];
  // Rotate by a hash of the query so different queries start from different domains.
  const start = stableHash(query) % pool.length;
  pool = [...pool.slice(start), ...pool.slice(0, start)];
  const to = options.toDate ? Date.parse(options.toDate) : LATEST;
  const from = options.fromDate ? Date.parse(options.fromDate) : undefined;
  const slug = slugify(query);
  return Array.from({ length: count }, (_, i) => {
    const domain = pool[i % pool.length]!;
    const round = Math.floor(i / pool.length);
    let published = (Number.isNaN(to) ? LATEST : to) - (i * 7 + 1) * DAY_MS;
    if (from !== undefined && !Number.isNaN(from) && published < from) published = from;
    return {
      title: `${titleCase(query)} - ${domain}${round > 0 ? ` (${round + 1})` : ''}`,
      url: `https://${domain}/${slug}${i >= pool.length ? `-${i + 1}` : ''}`,
      snippet: `What ${domain} says about "${query}": a deterministic sandbox snippet, result ${i + 1}.`,
      domain,
      publishedDate: new Date(published).toISOString().slice(0, 10),
      score: Math.round((0.95 - i * 0.07) * 100) / 100,
    };
  });
}

function titleCase(text: string): string {
  const trimmed = text.trim().slice(0, 80);
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}
