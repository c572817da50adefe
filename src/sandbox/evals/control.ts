import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import { CONTROL_PREFIX } from '../constants.js';
import { badRequest } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { addJudgeFault, clearJudgeFaults, JudgeFaultSpec, listJudgeFaults } from './judge.js';

/**
 * Control routes for evaluation tests (never logged or faulted, like every `/__sandbox` route):
 * `POST /__sandbox/evals/judge-faults` `{after?, times?, key?, message?}` makes judge calls fail
 * (after `after` good ones, the next `times`; only the given key's experiments when `key` is set),
 * `GET` lists the pending ones, `DELETE` clears them.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const path = `${CONTROL_PREFIX}/evals/judge-faults`;
  app.post(path, (c) => {
    const parsed = JudgeFaultSpec.safeParse(jsonBody(c));
    if (!parsed.success) {
      throw badRequest(`Invalid judge fault: ${z.prettifyError(parsed.error)}`, 'invalid_parameter_value');
    }
    return c.json({ id: addJudgeFault(ctx.state, parsed.data) }, 201);
  });
  app.get(path, (c) => c.json({ data: listJudgeFaults(ctx.state) }));
  app.delete(path, (c) => c.json({ cleared: clearJudgeFaults(ctx.state) }));
}
