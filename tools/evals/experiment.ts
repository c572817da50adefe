import { z } from 'zod';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { type NextCall, nextCall, sayNext } from '../../src/next-call.js';
import { EVALS, Experiment, TERMINAL } from './replies.js';
import { outputItems, progressLine, Summary, summarize } from './summary.js';

/** An experiment read and, once it has ended, added up: shared by eval_run and evals_read. */

export const RunOut = z.object({
  experiment_id: z.string(),
  status: z.string(),
  progress: z.string(),
  ...Summary,
  error: z.string().optional(),
  next: z.string().optional(),
});
export type RunOut = z.infer<typeof RunOut>;

/** The call that picks a run up again. */
export const nextRead = (id: string): NextCall =>
  nextCall('evals_read', { operation: 'experiments.get', id });

const experimentPath = (id: string) => `${EVALS}/experiments/${encodeURIComponent(id)}`;

export async function getExperiment(ctx: ToolContext, id: string) {
  const res = await ctx.api.request({ method: 'GET', path: experimentPath(id), schema: Experiment });
  return { exp: res.data, retryAfterMs: res.retryAfterMs };
}

const errorText = (error: Experiment['error']): string | undefined =>
  error == null
    ? undefined
    : typeof error === 'string'
      ? error
      : `${error.message}${error.code ? ` (${error.code})` : ''}`;

/** The result for an experiment: status and progress, and once it has ended its table, cost and worst items. */
export async function runResult(ctx: ToolContext, exp: Experiment): Promise<RunOut> {
  const base = { experiment_id: exp.id, status: exp.status, progress: progressLine(exp) };
  if (!TERMINAL.has(exp.status)) return { ...base, next: sayNext(nextRead(exp.id)) };
  const error = errorText(exp.error);
  const result = { ...base, ...summarize(await outputItems(ctx, exp.id)), ...(error ? { error } : {}) };
  // Its cost is known now: the reservation an eval_run kept for it settles (once, anywhere).
  if (result.cost_usd !== undefined) await ctx.budget.settleJob(exp.id, result.cost_usd);
  return result;
}
