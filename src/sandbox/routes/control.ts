import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import { CONTROL_PREFIX } from '../constants.js';
import { badRequest, SandboxError } from '../errors.js';
import { FaultSpec } from '../faults.js';
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
}
