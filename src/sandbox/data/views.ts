import { z } from 'zod';
import { DATA_ENDPOINTS, DATA_PREFIX, type DataEndpoint } from './catalog.js';
import { inputSchemaOf } from './handlers.js';

/** Catalog replies (spec 1 §2.7) and an endpoint's public metadata. */
export const CATALOG_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=3600';

function catalogItem(entry: DataEndpoint, origin: string): Record<string, unknown> {
  const endpoint = `${DATA_PREFIX}${entry.path}`;
  return {
    id: entry.id,
    object: 'data.endpoint',
    name: entry.name,
    description: entry.description,
    category: entry.category,
    provider: entry.provider,
    methods: entry.methods,
    endpoint,
    url: `${origin}${endpoint}`,
    direct_endpoint: entry.direct,
    pricing: entry.pricing,
    status: 'available',
  };
}

export function catalogBody(origin: string): Record<string, unknown> {
  const unique = <T>(values: T[]) => [...new Set(values)];
  return {
    object: 'list',
    data: DATA_ENDPOINTS.map((entry) => catalogItem(entry, origin)),
    meta: {
      count: DATA_ENDPOINTS.length,
      providers: unique(DATA_ENDPOINTS.map((e) => e.provider)),
      categories: unique(DATA_ENDPOINTS.map((e) => e.category)),
      dispatch: {
        path: DATA_PREFIX,
        method: 'POST',
        body: { endpoint: 'web.search', input: { query: 'orbital debris' } },
      },
    },
  };
}

/** What a GET on a POST-only endpoint's data path returns: the entry plus how to call it. */
export function metadataBody(entry: DataEndpoint, origin: string): Record<string, unknown> {
  const item = catalogItem(entry, origin);
  return {
    ...item,
    input: {
      description: inputSchemaOf(entry.id).description ?? null,
      schema: z.toJSONSchema(inputSchemaOf(entry.id), { io: 'input', unrepresentable: 'any' }),
      example: entry.example,
    },
    usage: {
      path_style: { method: 'POST', url: item.url, body: entry.example },
      body_style: {
        method: 'POST',
        url: `${origin}${DATA_PREFIX}`,
        body: { endpoint: entry.id, input: entry.example },
      },
    },
  };
}
