import { z } from 'zod';
import { NotFoundError, UpstreamInvalidError } from '../../src/errors.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { NumberLike } from '../../src/replies/number.js';
import type { RequestSpec } from '../../src/upstream/outgoing.js';
import { download, type FileOut, optionalNumber, receiving, saveBytes } from './shared.js';

/**
 * The video routes and their replies (spec 2 §2.4, §4.6; GAPS.md): the submit, both status shapes
 * normalized to the spec's status words, and the older status route and content proxy that serve
 * where the current status route answers 404.
 */
export const Accepted = z.looseObject({
  runId: z.string().optional(),
  id: z.string().optional(),
  requestId: z.string().optional(),
  status: z.string().optional(),
  model: z.string().optional(),
  cost: NumberLike.optional(),
  paymentSource: z.string().optional(),
  remainingBalance: NumberLike.optional(),
  prechargeLabel: z.string().optional(),
});

// Numbers may come as numeric strings: the spec fixes none of their types.
const Status = z.looseObject({
  status: z.string().optional(),
  progress: NumberLike.nullish(),
  estimatedTimeRemaining: NumberLike.nullish(),
  videoUrl: z.string().nullish(),
  error: z.string().nullish(),
  model: z.string().optional(),
  data: z
    .looseObject({
      status: z.string(),
      output: z.looseObject({ video: z.looseObject({ url: z.string() }).optional() }).nullish(),
      cost: NumberLike.nullish(),
      error: z.string().nullish(),
      userFriendlyError: z.string().nullish(),
      queuePosition: NumberLike.nullish(),
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
function readVideoStatus(reply: z.infer<typeof Status>): VideoState {
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
        apiKeyHeader: 'x-api-key',
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

/**
 * Saves the finished video: from its temporary URL, or through the content proxy
 * (`/api/generate-video/content`) when the status gave none, the URL answered 404, or the older
 * routes are the ones that answer here.
 */
export async function saveVideo(
  ctx: ToolContext,
  runId: string,
  url: string | undefined,
  routes: VideoRoutes,
): Promise<FileOut | undefined> {
  if (url && !routes.older) {
    try {
      const { data, contentType } = await download(ctx, url, 'the video');
      return saveBytes(ctx, data, contentType, url);
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
 * A video submit. One that timed out or lost its reply may have been accepted and charged: the
 * answer then names video_recent (the tool's `check`), never a second submit (src/mcp/writes.ts).
 */
export async function submitVideo(
  ctx: ToolContext,
  path: string,
  body: Record<string, unknown>,
  auth: Pick<RequestSpec, 'apiKeyHeader'> = {},
) {
  return await ctx.api.request({ method: 'POST', path, body, schema: Accepted, ...auth });
}
