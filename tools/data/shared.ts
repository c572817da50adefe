import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { NumberLike } from '../../src/replies/number.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { ReplyCache } from '../../src/upstream/cache.js';
import { validateReply } from '../../src/upstream/validate.js';

/**
 * The data API catalog (spec 1 §2.7, §4.5): read leniently, cached as its Cache-Control says, and
 * the platform's id matching (path-like ids, slashes to dots, hyphens to underscores, aliases), so
 * an unknown id is refused before anything is sent.
 */
export const DATA_PREFIX = '/api/v1/data';
export const CATEGORIES = ['search', 'scraping', 'maps', 'social', 'business'] as const;

export const DataEntry = z.looseObject({
  id: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  category: z.string(),
  provider: z.string().optional(),
  methods: z.array(z.string().transform((method) => method.toUpperCase())).min(1),
  endpoint: z.string().min(1),
  url: z.string().optional(),
  direct_endpoint: z.string().optional(),
  pricing: z.string().optional(),
  status: z.string().optional(),
});
export type DataEntry = z.infer<typeof DataEntry>;

export const DataCatalog = z.looseObject({
  data: z.array(DataEntry),
  meta: z.looseObject({ count: NumberLike.optional() }).optional(),
});
export type DataCatalog = z.infer<typeof DataCatalog>;

/** The catalog as the tools (and orbit-mcp doctor) read it: each entry on its own, the ones left out named. */
export const RawCatalog = DataCatalog.extend({ data: z.array(z.unknown()) });
type ReadCatalog = DataCatalog & { not_usable?: string };

const catalogs = new ReplyCache<ReadCatalog>();

/** Forgets every cached catalog (tests that change the catalog's reply between calls). */
export const forgetDataCatalogs = (): void => catalogs.clear();

/**
 * The catalog, from the cache while its Cache-Control allows; per key only when the reply is private.
 * An entry that cannot be used is left out and named in `not_usable`; the rest stay usable.
 */
export function dataCatalog(ctx: Pick<ToolContext, 'api' | 'credentials'>): Promise<ReadCatalog> {
  const key = ctx.credentials.get('api_key');
  const tenant = key ? createHash('sha256').update(key.value).digest('hex').slice(0, 32) : 'anonymous';
  return catalogs.get(`${ctx.api.baseUrl}${DATA_PREFIX}/endpoints`, tenant, async () => {
    const res = await ctx.api.request({
      method: 'GET',
      path: `${DATA_PREFIX}/endpoints`,
      credential: 'optional',
      schema: RawCatalog,
    });
    const entries = usableList(DataEntry, res.data.data);
    // Nothing usable left: the reply is upstream_invalid, naming the first field at fault (not cached).
    if (entries.items.length === 0 && entries.left_out.length > 0)
      validateReply(DataCatalog, res.data, res.requestId, `${DATA_PREFIX}/endpoints`);
    const notUsable = leftOutNote('data endpoint', entries.left_out);
    return {
      value: { ...res.data, data: entries.items, ...(notUsable ? { not_usable: notUsable } : {}) },
      headers: res.headers,
    };
  });
}

/** The endpoint's data path (`/api/v1/data/web/search`), whether the catalog gives a path or a URL. */
export function dataPath(entry: DataEntry): string {
  const path = /^https?:\/\//i.test(entry.endpoint) ? new URL(entry.endpoint).pathname : entry.endpoint;
  return path.startsWith('/') ? path : `/${path}`;
}

/** The aliases spec 1 §4.5 names, and the maps forms it mentions. */
const ALIASES: Record<string, string> = {
  search: 'web.search',
  web: 'web.search',
  scrape: 'url.scrape',
  'urls.scrape': 'url.scrape',
  url_scrape: 'url.scrape',
  'map.search': 'maps.search',
  'maps.review': 'maps.reviews',
  'map.reviews': 'maps.reviews',
  'map.review': 'maps.reviews',
};

export function normalizeId(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\/[^/]+/, '')
    .replace(/^\/+/, '')
    .replace(/^api\/v1\/data\//, '')
    .replace(/(?<!\/)\/+$/, '')
    .replace(/\//g, '.')
    .replace(/-/g, '_');
}

/** Separators aside (`maps_search` is `maps.search`), when that names exactly one endpoint. */
const loose = (id: string) => id.replace(/[^a-z0-9]/g, '');

export function findEntry(entries: readonly DataEntry[], raw: string): DataEntry | undefined {
  const normalized = normalizeId(raw);
  const wanted = ALIASES[normalized] ?? ALIASES[normalized.replace(/_/g, '.')] ?? normalized;
  const exact =
    entries.find((entry) => entry.id === wanted) ??
    entries.find((entry) => normalizeId(dataPath(entry)) === wanted);
  if (exact) return exact;
  const matches = entries.filter(
    (entry) => loose(entry.id) === loose(wanted) || loose(normalizeId(dataPath(entry))) === loose(wanted),
  );
  return matches.length === 1 ? matches[0] : undefined;
}

/** The error for an id the catalog does not know, naming the closest ids. */
export function unknownEndpoint(entries: readonly DataEntry[], raw: string): InputError {
  const wanted = normalizeId(raw);
  const closest = entries
    .map((entry) => ({ id: entry.id, distance: editDistance(wanted, entry.id) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map((match) => match.id);
  return new InputError(`Unknown data endpoint "${raw}". Closest: ${closest.join(', ')}.`, {
    fix: 'Use one of those ids (data_endpoints lists all of them); nothing was sent.',
    param: 'endpoint',
  });
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
