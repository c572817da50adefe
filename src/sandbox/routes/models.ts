import type { Context, Hono } from 'hono';
import { optionalKey } from '../billing.js';
import { IMAGE_MODELS } from '../catalog/image-models.js';
import { AUDIO_MODELS, EMBEDDING_MODELS, VIDEO_MODELS } from '../catalog/media-models.js';
import { TEXT_MODELS, type TextModel } from '../catalog/text-models.js';
import { CATALOG_CREATED } from '../constants.js';
import type { KeyRecord } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { MAX_EMBEDDING_INPUTS } from './embeddings.js';

/** Model catalogs (spec 2 §4.4). Auth is optional; an invalid key still gets the list. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.get('/api/v1/models', (c) => {
    const key = optionalKey(c, ctx);
    // An active subscriber sees only included models unless the paid-models preference is on.
    const onlyIncluded = key?.subscriber === true && !key.showPaidModels;
    return listText(c, key, onlyIncluded ? (m) => m.subscription : () => true);
  });
  app.get('/api/subscription/v1/models', (c) => listText(c, optionalKey(c, ctx), (m) => m.subscription));
  app.get('/api/paid/v1/models', (c) => listText(c, optionalKey(c, ctx), (m) => !m.subscription));

  app.get('/api/v1/image-models', (c) =>
    c.json(
      list(
        IMAGE_MODELS.map((m) => ({
          ...base(m.id, m.owned_by),
          name: m.name,
          description: m.description,
          type: 'image',
          capabilities: m.capabilities,
          pricing: { unit: 'per_image', usd_by_resolution: m.prices },
        })),
      ),
    ),
  );
  app.get('/api/v1/video-models', (c) =>
    c.json(
      list(
        VIDEO_MODELS.map(({ id, owned_by, price_per_second, ...rest }) => ({
          ...base(id, owned_by),
          ...rest,
          type: 'video',
          pricing: { unit: 'per_second', usd_by_resolution: price_per_second },
        })),
      ),
    ),
  );
  app.get('/api/v1/audio-models', (c) =>
    c.json(list(AUDIO_MODELS.map(({ id, owned_by, ...rest }) => ({ ...base(id, owned_by), ...rest })))),
  );
  app.get('/api/v1/embedding-models', (c) =>
    c.json(
      list(
        EMBEDDING_MODELS.map(({ id, owned_by, price_per_million, ...rest }) => ({
          ...base(id, owned_by),
          ...rest,
          ...(rest.supports_dimensions ? { min_dimensions: 1 } : {}),
          max_inputs: MAX_EMBEDDING_INPUTS,
          encoding_formats: ['float', 'base64'],
          type: 'embedding',
          pricing: { prompt: price_per_million, unit: 'per_million_tokens' },
        })),
      ),
    ),
  );
}

const base = (id: string, owned_by: string) => ({ id, object: 'model', created: CATALOG_CREATED, owned_by });
const list = <T>(data: T[]) => ({ object: 'list', data });

function listText(
  c: Context<SandboxEnv>,
  key: KeyRecord | undefined,
  include: (model: TextModel) => boolean,
): Response {
  const detailed = ['true', '1'].includes(c.req.query('detailed') ?? '');
  const models = sortModels(TEXT_MODELS.filter(include), c.req.query('sort'), key);
  return c.json(list(models.map((m) => (detailed ? detailedItem(m) : base(m.id, m.owned_by)))));
}

/** Ranked models first in rank order, the rest in catalog order; unknown sorts change nothing. */
function sortModels(models: TextModel[], sort: string | undefined, key: KeyRecord | undefined): TextModel[] {
  let rankOf: (model: TextModel) => number | undefined = () => undefined;
  if (sort === 'mostused') rankOf = (m) => m.rank;
  if (sort === 'favorites' && key) {
    rankOf = (m) => {
      const index = key.recentModels.indexOf(m.id);
      return index < 0 ? undefined : index;
    };
  }
  const ranked = models.filter((m) => rankOf(m) !== undefined).sort((a, b) => rankOf(a)! - rankOf(b)!);
  return [...ranked, ...models.filter((m) => rankOf(m) === undefined)];
}

export function detailedItem(m: TextModel): Record<string, unknown> {
  const typical = (1000 * m.pricing.prompt + 500 * m.pricing.completion) / 1e6;
  return {
    ...base(m.id, m.owned_by),
    name: m.name,
    description: m.description,
    context_length: m.context_length,
    max_output_tokens: m.max_output_tokens,
    capabilities: {
      streaming: true,
      tools: m.tools,
      vision: m.vision,
      reasoning: m.reasoning !== 'none',
      prompt_caching: m.caching,
      web_search: true,
      tee: m.tee,
    },
    supported_service_tiers: m.supported_service_tiers,
    pricing: { prompt: m.pricing.prompt, completion: m.pricing.completion, unit: 'per_million_tokens' },
    icon_url: `https://sandbox.invalid/icons/${m.owned_by}.svg`,
    cost_estimate: {
      typical_request_usd: Math.round(typical * 1e6) / 1e6,
      basis: '1000 input + 500 output tokens',
    },
    category: m.category,
    subscription_included: m.subscription,
    distillationPolicy: {
      status: 'unknown',
      label: 'Not stated',
      basis: 'sandbox',
      sourceUrl: null,
      note: 'Informational only.',
    },
  };
}
