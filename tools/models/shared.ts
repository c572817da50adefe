import { z } from 'zod';
import { NumberLike } from '../../src/replies/number.js';
import { usableList } from '../../src/replies/usable-list.js';
import type { Api } from '../../src/upstream/client.js';

export const MODEL_KINDS = ['text', 'image', 'video', 'audio', 'embedding'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];
export const ModelKind = z.enum(MODEL_KINDS);

/** A catalog item: the spec fixes `id`; everything else is optional and passed through. */
export const ModelRecord = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().nullish(),
  // "when known", type not fixed (spec 2 §2.1): a numeric string is read as its number.
  context_length: NumberLike.nullish(),
  max_output_tokens: NumberLike.nullish(),
  pricing: z.unknown().optional(),
  capabilities: z.unknown().optional(),
  category: z.string().nullish(),
  owned_by: z.string().nullish(),
});
export type ModelRecord = z.infer<typeof ModelRecord>;

/** A catalog page; each model is read on its own (one without an id is left out, not fatal). */
export const Catalog = z.looseObject({ data: z.array(z.unknown()) });

/** The models of a catalog reply that can be used, and the ones left out, named. */
const catalogModels = (data: unknown[]) => usableList(ModelRecord, data, { nameKeys: ['id', 'name'] });

const TEXT_PATHS = {
  all: '/api/v1/models',
  subscription: '/api/subscription/v1/models',
  paid: '/api/paid/v1/models',
} as const;
export type TextScope = keyof typeof TEXT_PATHS;

/** The catalog route of each kind (spec 2 §4.4 and §4.4a). */
export function catalogPath(kind: ModelKind, scope: TextScope = 'all'): string {
  if (kind === 'text') return TEXT_PATHS[scope];
  if (kind === 'image') return '/api/v1/images/models';
  return `/api/v1/${kind}-models`;
}

export async function fetchCatalog(
  api: Api,
  kind: ModelKind,
  options: { scope?: TextScope; detailed?: boolean; sort?: string } = {},
): Promise<ModelRecord[]> {
  const { data } = await api.request({
    method: 'GET',
    path: catalogPath(kind, options.scope),
    query: kind === 'text' ? { detailed: options.detailed || undefined, sort: options.sort } : undefined,
    credential: 'optional',
    schema: Catalog,
  });
  return catalogModels(data.data).items;
}

/** The few fields an agent needs to choose a model; the rest is in models_get. */
export function summarize(model: ModelRecord) {
  return {
    id: model.id,
    ...(model.name ? { name: model.name } : {}),
    ...(model.context_length ? { context_length: model.context_length } : {}),
    ...(model.pricing !== undefined ? { pricing: model.pricing } : {}),
  };
}

/**
 * Provider discovery, `GET /api/models/{canonicalId}/providers` (spec 2 §4.2): the whole id is one
 * percent-encoded segment (`anthropic%2Fclaude-opus-4.6`); the platform's reference says an id sent
 * with its slash is read as a longer path (issue 32).
 */
export const providersPath = (id: string): string => `/api/models/${encodeURIComponent(id)}/providers`;

/** One model with its extra records: providers for text, endpoint metadata for images. */
export async function fetchModel(
  api: Api,
  kind: ModelKind,
  id: string,
): Promise<{ model: ModelRecord; providers?: unknown; endpoints?: unknown } | undefined> {
  const model = (await fetchCatalog(api, kind, { detailed: true })).find((m) => m.id === id);
  if (!model) return undefined;
  if (kind === 'text') {
    const { data } = await api.request({
      method: 'GET',
      path: providersPath(id),
      credential: 'optional',
      schema: z.unknown(),
    });
    return { model, providers: data };
  }
  if (kind === 'image') {
    // Ids with slashes must use the `endpoints` URL the list gives (spec 2 §4.4a).
    const listed = typeof model.endpoints === 'string' ? model.endpoints : undefined;
    const { data } = await api.request({
      method: 'GET',
      path: listed ?? `/api/v1/images/models/${encodeURIComponent(id)}/endpoints`,
      credential: 'none',
      schema: z.looseObject({ endpoints: z.array(z.looseObject({})) }),
    });
    return { model, endpoints: data.endpoints };
  }
  return { model };
}
