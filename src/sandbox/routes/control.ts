import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import { findTextProvider } from '../catalog/text-providers.js';
import { CONTROL_PREFIX } from '../constants.js';
import { badRequest, SandboxError } from '../errors.js';
import { FaultSpec } from '../faults.js';
import { TEAM_RETENTION, USER_RETENTION } from '../text/response-store.js';
import { setProviderDown } from '../text/routing.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

const KeySpec = z.strictObject({
  key: z.string().min(8).optional(),
  account: z.string().optional(),
  balance: z.number().min(0).optional(),
  dailyRequestLimit: z.number().int().min(0).optional(),
  dailyUsdLimit: z.number().min(0).optional(),
  label: z.string().optional(),
  favorites: z.array(z.string()).optional(),
  subscriber: z.boolean().optional(),
  showPaidModels: z.boolean().optional(),
});

const ProviderSpec = z.strictObject({ provider: z.string(), down: z.boolean() });
const RetentionSpec = z.strictObject({
  key: z.string(),
  days: z.number().int().min(0).max(365).nullable(),
  level: z.enum(['user', 'team']).default('user'),
});

/**
 * HTTP control surface, so a sandbox running as its own process can be driven like an in-process
 * one: faults, the request log, and test keys.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const at = (path: string) => `${CONTROL_PREFIX}${path}`;

  app.get(at('/health'), (c) => c.json({ ok: true }));

  app.post(at('/faults'), (c) => {
    const parsed = FaultSpec.safeParse(jsonBody(c));
    if (!parsed.success)
      throw badRequest(`Invalid fault: ${z.prettifyError(parsed.error)}`, 'invalid_parameter_value');
    return c.json({ id: ctx.faults.add(parsed.data) }, 201);
  });
  app.get(at('/faults'), (c) => c.json({ data: ctx.faults.list() }));
  app.delete(at('/faults'), (c) => c.json({ cleared: ctx.faults.clear() }));
  app.delete(at('/faults/:id'), (c) => {
    const id = c.req.param('id') ?? '';
    if (!ctx.faults.remove(id)) throw new SandboxError(404, `No pending fault ${id}.`, { code: 'not_found' });
    return c.json({ removed: id });
  });

  app.get(at('/requests'), (c) => c.json({ data: ctx.requests }));
  app.delete(at('/requests'), (c) => {
    const cleared = ctx.requests.length;
    ctx.requests.length = 0;
    return c.json({ cleared });
  });

  // A provider that is down makes text requests fail over (or 503 when sticky or pinned by X-Provider).
  app.post(at('/providers'), (c) => {
    const parsed = ProviderSpec.safeParse(jsonBody(c));
    const provider = parsed.success ? findTextProvider(parsed.data.provider) : undefined;
    if (!parsed.success || !provider)
      throw badRequest(
        'Send {provider: <slug>, down: boolean} with a slug from the providers route.',
        'invalid_parameter_value',
      );
    setProviderDown(ctx.state, provider.slug, parsed.data.down);
    return c.json({ provider: provider.slug, down: parsed.data.down });
  });

  // The user's (or team's) default response retention, as the settings routes would store it.
  app.post(at('/responses-retention'), (c) => {
    const parsed = RetentionSpec.safeParse(jsonBody(c));
    const record = parsed.success ? ctx.state.getKey(parsed.data.key) : undefined;
    if (!parsed.success || !record)
      throw badRequest(
        'Send {key, days: 0..365 | null, level?: user | team} for an existing key.',
        'invalid_parameter_value',
      );
    const { days, level } = parsed.data;
    ctx.state
      .collection<number | null>(level === 'user' ? USER_RETENTION : TEAM_RETENTION)
      .set(record.account.id, days);
    return c.json({ account: record.account.id, level, days });
  });

  app.post(at('/keys'), (c) => {
    const parsed = KeySpec.safeParse(jsonBody(c));
    if (!parsed.success)
      throw badRequest(`Invalid key spec: ${z.prettifyError(parsed.error)}`, 'invalid_parameter_value');
    try {
      return c.json({ key: ctx.state.createKey(parsed.data) }, 201);
    } catch (error) {
      throw badRequest(
        error instanceof Error ? error.message : String(error),
        'invalid_parameter_value',
        'key',
      );
    }
  });
  // Revokes a key, as a person would on the platform: later calls with it get 401.
  app.delete(at('/keys/:key'), (c) => c.json({ deleted: ctx.state.deleteKey(c.req.param('key') ?? '') }));
}
