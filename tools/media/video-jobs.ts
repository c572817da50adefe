import { z } from 'zod';
import { UpstreamInvalidError } from '../../src/errors.js';
import { followJob, jobDone, jobFailed } from '../../src/jobs/follow.js';
import { type Step, seconds } from '../../src/jobs/wait.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { runNext, sayNext } from '../../src/next-call.js';
import { FileFields, whereSaved } from './shared.js';
import {
  type Accepted,
  fetchVideoStatus,
  saveVideo,
  type VideoRoutes,
  type VideoState,
} from './video-routes.js';

export { submitVideo } from './video-routes.js';

/**
 * Video jobs: the run recorded as soon as it is accepted, readable progress, the wait through the
 * one waiting machine, and the result. The routes and their replies are in video-routes.ts.
 */
export const VideoOut = z.object({
  run_id: z.string(),
  status: z.string(),
  video_url: z.string().optional(),
  ...FileFields,
  cost: z.object({ estimate: z.number(), final: z.number(), balance: z.number() }).partial().optional(),
  next: z.string().optional(),
});
export type VideoOut = z.infer<typeof VideoOut>;

/** The line a person reads while waiting. */
function describeVideo(state: VideoState, elapsedMs?: number): { message: string; fraction?: number } {
  if (state.status === 'IN_QUEUE') {
    return {
      message: `in queue${state.queuePosition ? `, position ${state.queuePosition}` : ''}`,
      fraction: 0.05,
    };
  }
  if (state.status === 'IN_PROGRESS') {
    const parts = ['rendering'];
    if (state.percent !== undefined) parts.push(`${Math.round(state.percent)}%`);
    if (state.etaSeconds) parts.push(`about ${Math.round(state.etaSeconds)} s left`);
    else if (state.percent === undefined && elapsedMs !== undefined)
      parts.push(`${seconds(elapsedMs)} so far`);
    return {
      message: parts.join(', '),
      fraction: state.percent !== undefined ? 0.1 + (0.85 * state.percent) / 100 : 0.1,
    };
  }
  return { message: 'status unknown; still checking' };
}

interface Known {
  runId: string;
  model?: string;
  estimate?: number;
  balance?: number;
}

/**
 * A video submit's accepted reply (generate or extend): the run id, its pre-charge and the balance,
 * recorded at once so the run is never lost, even if the wait that follows is cut.
 */
export function acceptVideo(
  ctx: ToolContext,
  data: z.infer<typeof Accepted>,
  requestId: string | undefined,
  model: string | undefined,
): Known {
  const runId = data.runId ?? data.id ?? data.requestId;
  if (!runId) {
    throw new UpstreamInvalidError('The platform accepted the video job but sent no run id.', {
      requestId,
      fix: 'Call video_recent to find the run before submitting again (a second submit pays twice).',
    });
  }
  const known = { runId, model: data.model ?? model, estimate: data.cost, balance: data.remainingBalance };
  ctx.jobs.record({ id: runId, kind: 'video', model: known.model, status: 'IN_QUEUE', cost: costOf(known) });
  return known;
}

const costOf = (known: Pick<Known, 'estimate' | 'balance'>) => ({
  ...(known.estimate !== undefined ? { estimate: known.estimate } : {}),
  ...(known.balance !== undefined ? { balance: known.balance } : {}),
});

/** Polls a video run until it ends or `max_wait_s` runs out; saves the MP4 when asked. */
export async function awaitVideo(
  ctx: ToolContext,
  known: Known,
  options: { maxWaitS: number; download: boolean },
): Promise<VideoOut> {
  const recorded = (await ctx.jobs.get(known.runId))?.cost?.estimate;
  const estimate = known.estimate ?? (typeof recorded === 'number' ? recorded : undefined);
  const cost = costOf({ estimate, balance: known.balance });
  const next = runNext('video_status', known.runId);
  const started = Date.now();
  const routes: VideoRoutes = { older: false };
  const outcome = await followJob<VideoState>(ctx, {
    id: known.runId,
    kind: 'video',
    model: known.model,
    next,
    maxWaitS: options.maxWaitS,
    startMessage: `video ${known.runId} submitted; waiting for it`,
    poll: async (): Promise<Step<VideoState>> => {
      const { state, hintMs } = await fetchVideoStatus(ctx, known.runId, routes, known.model);
      if (state.status === 'COMPLETED' || state.status === 'FAILED' || state.status === 'CANCELED')
        return { done: true, value: state };
      const { message, fraction } = describeVideo(state, Date.now() - started);
      return {
        done: false,
        state: state.status === 'IN_QUEUE' ? 'queued' : 'running',
        status: state.status,
        message,
        fraction,
        retryAfterMs: hintMs,
      };
    },
  });
  if (!outcome.done) {
    const status = outcome.last?.state === 'queued' ? 'IN_QUEUE' : 'IN_PROGRESS';
    return {
      run_id: known.runId,
      status,
      ...(Object.keys(cost).length ? { cost } : {}),
      next: sayNext(next),
    };
  }
  const state = outcome.value;
  ctx.progress.report(`video ${state.status.toLowerCase()}`, 1);
  if (state.status !== 'COMPLETED') {
    const error = state.error ?? `The video job ended ${state.status}.`;
    const refunded = state.status === 'FAILED' ? estimate : undefined;
    const refund = refunded !== undefined ? ` The pre-charge of ${refunded} USD was refunded.` : '';
    throw jobFailed(
      ctx,
      { id: known.runId, kind: 'video', status: state.status, error, cost },
      `Video ${known.runId} ${state.status}: ${error}${refund}`,
      {
        fix: 'Adjust the prompt or settings and call video_generate again.',
        details: refunded !== undefined ? { refunded_usd: refunded } : undefined,
      },
    );
  }
  const file = options.download ? await saveVideo(ctx, known.runId, state.videoUrl, routes) : undefined;
  const finalCost = state.finalCost ?? estimate;
  const out: VideoOut = {
    run_id: known.runId,
    status: state.status,
    ...(state.videoUrl ? { video_url: state.videoUrl } : {}),
    ...file,
    cost: { ...cost, ...(finalCost !== undefined ? { final: finalCost } : {}) },
  };
  jobDone(ctx, {
    id: known.runId,
    kind: 'video',
    status: state.status,
    message: 'video completed',
    cost: out.cost,
    result: { video_url: state.videoUrl, ...file },
  });
  return out;
}

/** Text for video results: the state, where the video is, and what it cost. */
export function videoText(r: VideoOut): string {
  const lines = [`Video ${r.run_id}: ${r.status}`];
  if (r.uri) lines.push(`Saved: ${whereSaved(r)}`);
  if (r.video_url) lines.push(`URL (temporary): ${r.video_url}`);
  if (r.cost) {
    const c = r.cost;
    const parts = [
      c.estimate !== undefined && `pre-charged ${c.estimate} USD`,
      c.final !== undefined && `final ${c.final} USD`,

      c.balance !== undefined && `balance ${c.balance} USD`,
    ].filter(Boolean);
    if (parts.length) lines.push(`Cost: ${parts.join(', ')}`);
  }

  if (r.next) lines.push(`Still running. Next: call ${r.next}.`);
  return lines.join('\n');
}
