import type { Hono } from 'hono';
import * as control from '../evals/control.js';
import * as datasets from '../evals/datasets.js';
import * as experiments from '../evals/experiments.js';
import * as projects from '../evals/projects.js';
import * as scorers from '../evals/scorers.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

const BASE = '/api/v1/evals';

/**
 * Evaluations (spec 2 §2.7, §3, §4.11, §8): projects, datasets and versions, scorers, and
 * experiments that really run on the sandbox clock. Errors use the common envelope (spec 1 §7.1).
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope(BASE, 'common');
  projects.register(app, ctx, BASE);
  datasets.register(app, ctx, BASE);
  scorers.register(app, ctx, BASE);
  experiments.register(app, ctx, BASE);
  control.register(app, ctx);
}
