import { findTextModel, type TextModel } from '../catalog/text-models.js';
import { badRequest } from '../errors.js';

/** Model suffixes of spec 2 §4.2, as accepted after the id (`openai/gpt-sandbox:online:cheap`). */
const SUFFIXES = new Set([
  'online',
  'caching',
  'cache',
  'cached',
  'fast',
  'speed',
  'cheap',
  'price',
  'floor',
  'throughput',
  'latency',
  'tools',
  'thinking',
  'reasoning-exclude',
]);

export interface ResolvedModel {
  model: TextModel;
  requested: string;
  online: boolean;
  caching: boolean;
  thinking: boolean;
  excludeReasoning: boolean;
  /** `:tools`: only providers with tool use. */
  tools: boolean;
  /** Provider order asked by a routing suffix (text/routing.ts). */
  sort: 'default' | 'price' | 'latency' | 'throughput';
  /** Price multiplier of routing suffixes when no route is chosen: `:cheap` cheaper, `:fast` dearer. */
  priceFactor: number;
}

export function resolveTextModel(requested: unknown): ResolvedModel {
  if (typeof requested !== 'string' || requested.trim() === '') {
    throw badRequest(
      '`model` is required: pick an id from GET /api/v1/models.',
      'missing_required_parameter',
      'model',
    );
  }
  const [id = '', ...suffixes] = requested.split(':');
  let model = findTextModel(id);
  let thinking = false;
  // The `-thinking` alias exists only for models that think on request.
  if (!model && id.endsWith('-thinking')) {
    const baseModel = findTextModel(id.slice(0, -'-thinking'.length));
    if (baseModel?.reasoning === 'on-request') {
      model = baseModel;
      thinking = true;
    }
  }
  if (!model) {
    throw badRequest(
      `Model "${id}" not found; list models with GET /api/v1/models.`,
      'model_not_found',
      'model',
    );
  }
  for (const suffix of suffixes) {
    if (!SUFFIXES.has(suffix)) {
      throw badRequest(
        `Unknown model suffix ":${suffix}". Known: ${[...SUFFIXES].map((s) => `:${s}`).join(', ')}.`,
        'invalid_parameter_value',
        'model',
      );
    }
  }
  const has = (...names: string[]) => names.some((n) => suffixes.includes(n));
  let priceFactor = 1;
  let sort: ResolvedModel['sort'] = 'default';
  if (has('cheap', 'price', 'floor')) {
    priceFactor = 0.8;
    sort = 'price';
  } else if (has('fast', 'speed', 'latency')) {
    priceFactor = 1.25;
    sort = 'latency';
  } else if (has('throughput')) {
    priceFactor = 0.8;
    sort = 'throughput';
  }
  return {
    model,
    requested,
    online: has('online'),
    caching: has('caching', 'cache', 'cached'),
    thinking: thinking || has('thinking'),
    excludeReasoning: has('reasoning-exclude'),
    tools: has('tools'),
    sort,
    priceFactor,
  };
}
