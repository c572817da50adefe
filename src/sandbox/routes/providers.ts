import type { Hono } from 'hono';
import { findTextModel } from '../catalog/text-models.js';
import { providerEntry, TEXT_PROVIDERS } from '../catalog/text-providers.js';
import { SandboxError } from '../errors.js';
import { isProviderDown } from '../text/routing.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/**
 * Provider discovery (spec 2 §4.2): `GET /api/models/{canonicalId}/providers`. Ids contain slashes,
 * so the id is one percent-encoded segment (`openai%2Fgpt-sandbox`); sent with its slash it is a
 * longer path, which no route serves (the platform's reference, issue 32). Each entry's slug is
 * what the `X-Provider` header takes; a provider switched off with the control route shows
 * `status: unavailable`.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/models/', 'legacy');
  app.get('/api/models/:id/providers', (c) => {
    const id = c.req.param('id');
    const model = findTextModel(id);
    if (!model) throw new SandboxError(404, `Model "${id}" not found.`, { code: 'model_not_found' });
    return c.json({
      object: 'list',
      model: model.id,
      data: TEXT_PROVIDERS.map((p) => providerEntry(model, p, isProviderDown(ctx.state, p.slug))),
    });
  });
}
