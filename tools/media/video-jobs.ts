import { z } from 'zod';
import {
  ConnectionError,
  NotFoundError,
  type OrbitErrorOptions,
  TimeoutError,
  UpstreamInvalidError,
  UpstreamTimeoutError,
} from '../../src/errors.js';
import { mayHaveReached } from '../../src/http/client.js';
import { followJob, jobDone, jobFailed, nextCall } from '../../src/jobs/follow.js';
import { type Step, seconds } from '../../src/jobs/wait.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import {
  download,
  FileFields,
  type FileOut,
  optionalNumber,
  receiving,
  saveBytes,
  whereSaved,
} from './shared.js';

/**
 * Video jobs: the accepted reply (spec 2 §2.4), both status shapes of GAPS.md normalized to the
 * spec's status words, readable progress, and the one waiting machine.
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

export const Accepted = z.looseObject({
  runId: z.string().optional(),
  id: z.string().optional(),
  requestId: z.string().optional(),
  status: z.string().optional(),
  model: z.string().optional(),
  cost: z.number().optional(),
  paymentSource: z.string().optional(),
  remainingBalance: z.number().optional(),
  prechargeLabel: z.string().optional(),
});

const Status = z.looseObject({
  status: z.string().optional(),
  progress: z.number().nullish(),
  estimatedTimeRemaining: z.number().nullish(),
  videoUrl: z.string().nullish(),
  error: z.string().nullish(),
  model: z.string().optional(),
  data: z
    .looseObject({
      status: z.string(),
      output: z.looseObject({ video: z.looseObject({ url: z.string() }).optional() }).nullish(),
      cost: z.number().nullish(),
      error: z.string().nullish(),
      userFriendlyError: z.string().nullish(),
      queuePosition: z.number().nullish(),
    })
    .optional(),
});

export interface VideoState {
  status: 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELED' | 'UNKNOWN';
  videoUrl?: string;
  finalCost?: number;
  error?: string;
  queuePosition?: number;
  percent?: number;
  etaSeconds?: number;
}

const FLAT: Record<string, VideoState['status']> = {
  queued: 'IN_QUEUE',
  pending: 'IN_QUEUE',
  processing: 'IN_PROGRESS',
  completed: 'COMPLETED',
  failed: 'FAILED',
  cancelled: 'CANCELED',
  canceled: 'CANCELED',
};
const KNOWN = new Set(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELED']);

/** Either reply shape (nested `data.status` or flat `status`), to the spec's status words. */
export function readVideoStatus(reply: z.infer<typeof Status>): VideoState {
  if (reply.data) {
    const d = reply.data;
    const word = d.status.toUpperCase();
    return {
      status: KNOWN.has(word) ? (word as VideoState['status']) : (FLAT[d.status.toLowerCase()] ?? 'UNKNOWN'),
      videoUrl: d.output?.video?.url,
      finalCost: optionalNumber(d.cost),
      error: d.userFriendlyError ?? d.error ?? undefined,
      queuePosition: optionalNumber(d.queuePosition),
    };
  }
  const word = reply.status ?? 'unknown';
  return {
    status: KNOWN.has(word.toUpperCase())
      ? (word.toUpperCase() as VideoState['status'])
      : (FLAT[word.toLowerCase()] ?? 'UNKNOWN'),
    videoUrl: reply.videoUrl ?? undefined,
    error: reply.error ?? undefined,
    percent: optionalNumber(reply.progress),
    etaSeconds: optionalNumber(reply.estimatedTimeRemaining),
  };
}

/** The line a person reads while waiting. */
export function describeVideo(state: VideoState, elapsedMs?: number): { message: string; fraction?: number } {
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

/**
 * Which status route answers: the current one (GAPS.md), or, once it answered 404, the older
 * `/api/generate-video/status` with the content proxy for the bytes. Kept for one wait.
 */
export interface VideoRoutes {
  older: boolean;
}

export async function fetchVideoStatus(ctx: ToolContext, runId: string, routes: VideoRoutes, model?: string) {
  const older = () =>
    ctx.api.request({
      method: 'GET',
      path: '/api/generate-video/status',
      query: { runId, model },
      schema: Status,
    });
  let res: Awaited<ReturnType<typeof older>>;
  if (routes.older) res = await older();
  else {
    try {
      res = await ctx.api.request({
        method: 'GET',
        path: '/api/video/status',
        query: { requestId: runId },
        schema: Status,
      });
    } catch (error) {
      // A 404 is the route missing or the run unknown: the older route tells which.
      if (!(error instanceof NotFoundError)) throw error;
      res = await older();
      routes.older = true;
      ctx.progress.report('the video status route answered 404; using the older status route');
    }
  }
  return { state: readVideoStatus(res.data), hintMs: res.retryAfterMs, model: res.data.model };
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

/** Polls a video run until it ends or the wait budget runs out; saves the MP4 when asked. */
export async function awaitVideo(
  ctx: ToolContext,
  known: Known,
  options: { maxWaitS: number; download: boolean },
): Promise<VideoOut> {
  const recorded = ctx.jobs.get(known.runId)?.cost?.estimate;
  const estimate = known.estimate ?? (typeof recorded === 'number' ? recorded : undefined);
  const cost = costOf({ estimate, balance: known.balance });
  const next = nextCall('video_status', known.runId);
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
    return { run_id: known.runId, status, ...(Object.keys(cost).length ? { cost } : {}), next };
  }
  const state = outcome.value;
  ctx.progress.report(`video ${state.status.toLowerCase()}`, 1);
  if (state.status !== 'COMPLETED') {
    const error = state.error ?? `The video job ended ${state.status}.`;
    const refunded = state.status === 'FAILED' ? estimate : undefined;
    const refund = refunded !== undefined ? ` The pre-charge of ${refunded} USD was refunded.` : '';
    throw jobFailed(
      ctx,
      { id: known.runId, kind: 'video', status: state.status, error, cost, next: 'video_generate again' },
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

/**
 * Saves the finished video: from its temporary URL, or through the content proxy
 * (`/api/generate-video/content`) when the status gave none, the URL answered 404, or the older
 * routes are the ones that answer here.
 */
async function saveVideo(
  ctx: ToolContext,
  runId: string,
  url: string | undefined,
  routes: VideoRoutes,
): Promise<FileOut | undefined> {
  if (url && !routes.older) {
    try {
      const { data, contentType } = await download(ctx, url, 'the video');
      return saveBytes(ctx, data, contentType);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const res = await ctx.api.bytes({
    method: 'GET',
    path: '/api/generate-video/content',
    query: { runId },
    headers: { accept: 'video/*, */*' },
    onBytes: receiving(ctx, 'downloading the video'),
  });
  if (/json/i.test(res.contentType)) {
    throw new UpstreamInvalidError('The video content route sent JSON instead of the video.', {
      requestId: res.requestId,
      fix: `Call video_status with run_id "${runId}" again, or open the video URL if it has one.`,
    });
  }
  return saveBytes(ctx, res.data, res.contentType);
}

/**
 * A video submit. One that timed out or lost its connection may have been accepted and charged:
 * the way on is video_recent (which lists the run), never a second submit that may pay twice.
 */
export async function submitVideo(ctx: ToolContext, path: string, body: Record<string, unknown>) {
  try {
    return await ctx.api.request({ method: 'POST', path, body, schema: Accepted });
  } catch (error) {
    const lost =
      error instanceof TimeoutError ||
      error instanceof UpstreamTimeoutError ||
      (error instanceof ConnectionError && mayHaveReached(error));
    if (!lost) throw error;
    const message = `${error.message} The platform may have accepted the job and charged for it.`;
    const options: OrbitErrorOptions = {
      status: error.status,
      requestId: error.requestId,
      cause: error,
      fix: 'Call video_recent to find the run and follow it with video_status; do not submit again (a second submit may pay twice).',
    };
    if (error instanceof TimeoutError) throw new TimeoutError(message, options);
    if (error instanceof UpstreamTimeoutError) throw new UpstreamTimeoutError(message, options);
    throw new ConnectionError(message, options);
  }
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
