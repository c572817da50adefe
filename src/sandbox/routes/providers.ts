import type { Hono } from 'hono';
import { findTextModel, type TextModel } from '../catalog/text-models.js';
import { SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/** Provider discovery (spec 2 §4.2): `GET /api/models/{canonicalId}/providers`; ids contain slashes. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/models/', 'legacy');
  app.get('/api/models/:id{.+}/providers', (c) => {
    const id = decodeURIComponent(c.req.param('id'));
    const model = findTextModel(id);
    if (!model) throw new SandboxError(404, `Model "${id}" not found.`, { code: 'model_not_found' });
    return c.json({ object: 'list', model: model.id, data: providersOf(model) });
  });
}

/** Two providers per model: the reference one and a cheaper one without prompt caching. */
export function providersOf(model: TextModel): Record<string, unknown>[] {
  const entry = (
    name: string,
    slug: string,
    factor: number,
    caching: boolean,
    latency: number,
    tps: number,
  ) => ({
    provider_name: name,
    provider_slug: slug,
    status: 'available',
    pricing: {
      prompt: Math.round(model.pricing.prompt * factor * 1e6) / 1e6,
      completion: Math.round(model.pricing.completion * factor * 1e6) / 1e6,
      unit: 'per_million_tokens',
    },
    context_length: model.context_length,
    max_output_tokens: model.max_output_tokens,
    supports_caching: caching,
    supports_tools: model.tools,
    latency_ms: latency,
    throughput_tps: tps,
  });
  return [
    entry('Sandbox Cloud', 'sandbox-cloud', 1, model.caching, 400, 80),
    entry('Budget Compute', 'budget-compute', 0.8, false, 900, 40),
  ];
}
