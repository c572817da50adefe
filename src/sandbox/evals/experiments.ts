import type { Context, Hono } from 'hono';
import { jsonBody } from '../body.js';
import { badRequest, SandboxError } from '../errors.js';
import { hintHeaders } from '../media/jobs.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { evalKey, evalOwner, evalTables, notFound } from './access.js';
import { type Experiment, TERMINAL } from './experiment.js';
import { createExperiment } from './experiment-create.js';
import { cancel, refresh } from './timeline.js';
import { experimentView, list, outputItemView } from './views.js';

/** Output items a page holds: every item of the largest run (100 work units, spec 2 §8). */
const PAGE = 100;

/**
 * `/api/v1/evals/experiments` (spec 2 §4.11): create, get, output items. The spec names an
 * experiment list and a cancel route without showing them; the sandbox serves `GET /experiments`
 * (optional `project_id` filter) and `POST /experiments/{id}/cancel` (the experiment, now
 * `cancelled`; 409 once it has ended).
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext, base: string): void {
  const experiments = evalTables(ctx).experiments;
  const find = (c: Context<SandboxEnv>): Experiment => {
    const owner = evalOwner(c, ctx);
    const id = c.req.param('id') ?? '';
    const exp = experiments.get(owner, id);
    if (!exp) throw notFound('experiment', id);
    refresh(ctx, exp);
    // While it runs, replies carry the poll hint the sandbox options ask for.
    if (!TERMINAL.includes(exp.status)) hintHeaders(c, ctx);
    return exp;
  };

  app.post(`${base}/experiments`, (c) => {
    const exp = createExperiment(ctx, evalKey(c, ctx), jsonBody(c));
    return c.json(experimentView(exp), 201);
  });

  app.get(`${base}/experiments`, (c) => {
    const owner = evalOwner(c, ctx);
    const projectId = c.req.query('project_id');
    const mine = experiments.list(owner).filter((e) => projectId === undefined || e.projectId === projectId);
    return c.json(list(mine.map(experimentView)));
  });

  app.get(`${base}/experiments/:id`, (c) => c.json(experimentView(find(c))));

  app.post(`${base}/experiments/:id/cancel`, (c) => {
    const exp = find(c);
    if (!cancel(ctx, exp)) {
      throw new SandboxError(409, `Experiment ${exp.id} has already ended (${exp.status}).`, {
        code: 'conflict',
      });
    }
    return c.json(experimentView(exp));
  });

  /**
   * One entry per row x candidate, in run order. The route lists no `limit` (the platform's
   * reference, issue 32): one is ignored, and pages hold 100; `after` (an item id) is the sandbox's
   * own cursor.
   */
  app.get(`${base}/experiments/:id/output_items`, (c) => {
    const exp = find(c);
    const all: ReturnType<typeof outputItemView>[] = [];
    for (let i = 0; i < exp.items.length; i += 1) {
      for (let k = 0; k < exp.candidates.length; k += 1) all.push(outputItemView(exp, i, k));
    }
    const after = c.req.query('after');
    let start = 0;
    if (after !== undefined) {
      const index = all.findIndex((item) => item.id === after);
      if (index < 0)
        throw badRequest(
          `\`after\`: no output item "${after}" in this experiment.`,
          'invalid_parameter_value',
          'after',
        );
      start = index + 1;
    }
    const page = all.slice(start, start + PAGE);
    return c.json({
      object: 'list',
      data: page,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
      has_more: start + PAGE < all.length,
    });
  });
}
