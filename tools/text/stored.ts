import { z } from 'zod';
import { ApiError, NotFoundError } from '../../src/errors.js';
import { followJob, jobDone, jobFailed } from '../../src/jobs/follow.js';
import { type Step, seconds } from '../../src/jobs/wait.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { runNext, sayNext } from '../../src/next-call.js';
import { type ChatOut, emptyState, resultOf } from './reply.js';
import { applyResponse, ResponseBody } from './reply-responses.js';

/**
 * Stored and background responses (spec 2 §4.2, §8): `GET /api/v1/responses/{id}` reads one back.
 * A background response is a job like a video: followed through src/jobs with progress until it
 * ends or the wait runs out, then handed back with the call that continues (`job_status`). Reading
 * is free, so the fetch lives on job_status (a read) and chat keeps its honest `spend` hint.
 */
export const RESPONSE_KIND = 'response' as const;

const PENDING = new Set(['queued', 'in_progress']);

interface Read {
  body: ResponseBody;
  requestId?: string;
}

/**
 * The read-back route is a guess: spec 2 §4.2 shows background processing and `store`, not how a
 * stored response is read (docs/platform-assumptions.md). Only background runs and job_status use
 * it; a platform without it (404, 405) gets an answer naming the guess, never a generic failure.
 */
async function fetchResponse(ctx: ToolContext, id: string): Promise<Read & { retryAfterMs?: number }> {
  const path = `/api/v1/responses/${encodeURIComponent(id)}`;
  const res = await ctx.api
    .request({ method: 'GET', path, schema: ResponseBody.extend({ status: z.string().optional() }) })
    .catch((error: unknown) => {
      if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 405)) throw error;
      throw new NotFoundError(
        `Response ${id} cannot be read back: the platform answered ${error.status} to GET ${path}, a route spec 2 does not show (a documented guess). The id is unknown, expired or not stored, or this platform reads responses another way.`,
        {
          status: error.status,
          requestId: error.requestId,
          fix: 'Call chat again without background (it waits in the foreground), or ask the platform how stored responses are read.',
        },
      );
    });
  // Without a status (the response object's fields are not shown), output means done, else still running.
  const status =
    res.data.status ?? (res.data.output?.length || res.data.output_text ? 'completed' : 'in_progress');
  return { body: { ...res.data, status }, requestId: res.requestId, retryAfterMs: res.retryAfterMs };
}

/** Waits up to `waitS` for a stored response to finish; 0 hands the id back at once. */
export async function awaitResponse(
  ctx: ToolContext,
  id: string,
  waitS: number,
  model?: string,
): Promise<ChatOut> {
  const next = runNext('job_status', id);
  const pending = (status: string): ChatOut => ({
    text: '',
    finish_reason: status,
    response_id: id,
    next: sayNext(next),
  });
  if (waitS === 0) {
    ctx.jobs.record({ id, kind: RESPONSE_KIND, model, status: 'queued', next });
    return pending('queued');
  }
  const started = Date.now();
  const outcome = await followJob<Read>(ctx, {
    id,
    kind: RESPONSE_KIND,
    model,
    next,
    maxWaitS: waitS,
    startMessage: `response ${id} is running in the background; waiting for it`,
    poll: async (): Promise<Step<Read>> => {
      const read = await fetchResponse(ctx, id);
      const status = read.body.status ?? 'unknown';
      if (!PENDING.has(status)) return { done: true, value: read };
      const queued = status === 'queued';
      return {
        done: false,
        state: queued ? 'queued' : 'running',
        status,
        message: queued ? 'in queue' : `generating, ${seconds(Date.now() - started)} so far`,
        fraction: queued ? 0.05 : 0.5,
        retryAfterMs: read.retryAfterMs,
      };
    },
  });
  if (!outcome.done) return pending(outcome.last?.status ?? 'in_progress');
  const { body, requestId } = outcome.value;
  if (body.status !== 'completed' && body.status !== 'incomplete') {
    const reason = body.error?.message ?? `it ended ${body.status}`;
    throw jobFailed(
      ctx,
      { id, kind: RESPONSE_KIND, status: body.status, error: reason },
      `Response ${id} did not complete: ${reason}.`,
      { requestId, fix: 'Call chat again (a cancelled or failed background response gives no answer).' },
    );
  }
  ctx.progress.report(`response ${body.status}`, 1);
  const state = emptyState();
  applyResponse(state, body);
  const out = resultOf(state, requestId, body.model ?? model ?? '');
  jobDone(ctx, {
    id,
    kind: RESPONSE_KIND,
    status: body.status,
    message: `response ${body.status}`,
    ...(out.cost ? { cost: { amount: out.cost.amount, currency: out.cost.currency } } : {}),
  });
  // Its cost is known now: the reservation a background chat kept for it settles (once, anywhere).
  if (out.cost?.currency.toUpperCase() === 'USD') await ctx.budget.settleJob(id, out.cost.amount);
  return out;
}
