import { DATA_ENDPOINTS, type DataEndpoint } from './catalog.js';

/**
 * Endpoint id matching (spec 1 §4.5): path-like ids (`api/v1/data/...`) are accepted, slashes
 * become dots, hyphens become underscores; a data path names its endpoint too; a few aliases.
 */
const ALIASES: Record<string, string> = {
  search: 'web.search',
  web: 'web.search',
  scrape: 'url.scrape',
  'urls.scrape': 'url.scrape',
  url_scrape: 'url.scrape',
  maps_search: 'maps.search',
  'map.search': 'maps.search',
  maps_reviews: 'maps.reviews',
  'maps.review': 'maps.reviews',
  maps_review: 'maps.reviews',
  'map.reviews': 'maps.reviews',
};

/**
 * An endpoint id, path or URL as one key: lower case, no host or /api/v1/data/ prefix, dots for
 * slashes, underscores for dashes.
 * @public test/unit/linear-time.test.ts loads this file by its path in a child process.
 */
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

const BY_KEY = new Map<string, DataEndpoint>();
for (const entry of DATA_ENDPOINTS) {
  BY_KEY.set(entry.id, entry);
  BY_KEY.set(normalizeId(entry.path), entry);
}
for (const [alias, id] of Object.entries(ALIASES)) BY_KEY.set(alias, BY_KEY.get(id)!);

export const findEndpoint = (raw: string): DataEndpoint | undefined => BY_KEY.get(normalizeId(raw));

/**
 * A data path's endpoint and the sub-resource below it: `microblog/users/esa` is microblog.read
 * with `users/esa`. Only endpoints that serve sub-resources take a remainder.
 */
export function resolveDataPath(path: string): { entry: DataEndpoint; rest: string } | undefined {
  const segments = path.split('/').filter(Boolean);
  for (let n = segments.length; n > 0; n--) {
    const entry = findEndpoint(segments.slice(0, n).join('/'));
    if (entry && (n === segments.length || entry.subpaths))
      return { entry, rest: segments.slice(n).join('/') };
  }
  return undefined;
}

/** The ids nearest to an unknown one, for the error message. */
export function closestIds(raw: string, count = 3): string[] {
  const wanted = normalizeId(raw);
  return [...BY_KEY.entries()]
    .map(([key, entry]) => ({ id: entry.id, distance: editDistance(wanted, key) }))
    .sort((a, b) => a.distance - b.distance)
    .map((m) => m.id)
    .filter((id, i, all) => all.indexOf(id) === i)
    .slice(0, count);
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
