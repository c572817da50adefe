import type { Hono } from 'hono';
import { requireKey } from '../billing.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { keyUsage } from '../usage/views.js';

/** Subscription usage by API key (spec 1 §4.4); units are operations. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/subscription/v1/usage', 'legacy');
  app.get('/api/subscription/v1/usage', (c) => {
    const record = requireKey(c, ctx);
    return c.json(keyUsage(ctx.state, record.account.id));
  });
}
