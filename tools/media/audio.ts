import { z } from 'zod';
import { REPORT_UPSTREAM, UpstreamInvalidError } from '../../src/errors.js';
import { followJob, jobDone, jobFailed } from '../../src/jobs/follow.js';
import type { Step } from '../../src/jobs/wait.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { runNext, sayNext } from '../../src/next-call.js';
import { NumberLike } from '../../src/replies/number.js';
import { costFromHeaders } from '../../src/upstream/pricing.js';
import { parseJsonReply, validateReply } from '../../src/upstream/validate.js';
import { download, FileFields, type FileOut, saveBytes, whereSaved } from './shared.js';

/** What speech and music tools return: the saved file, or the run id while an async job runs. */
export const AudioOut = z.object({
  status: z.string(),
  ...FileFields,
  cost: z.number().optional(),
  duration: z.number().optional(),
  run_id: z.string().optional(),
  next: z.string().optional(),
});
export type AudioOut = z.infer<typeof AudioOut>;

/** JSON forms of `/api/tts`: `{audioUrl}` or a 202 ticket `{runId, status: pending}`. */
const TtsJson = z.looseObject({
  audioUrl: z.string().optional(),
  runId: z.string().optional(),
  status: z.string().optional(),
  model: z.string().optional(),
  contentType: z.string().optional(),
  cost: NumberLike.optional(),
  paymentSource: z.string().optional().catch(undefined),
  // The platform's reference shows it on a JSON reply (issue 32); seconds is assumed.
  duration: NumberLike.optional().catch(undefined),
});
const TtsStatus = z.looseObject({
  status: z.string(),
  audioUrl: z.string().optional(),
  contentType: z.string().optional(),
  queuePosition: NumberLike.optional(),
  error: z.string().optional(),
  code: z.string().optional(),
  duration: NumberLike.optional().catch(undefined),
});

/** Bytes kept as audio: an audio type, or a type that says nothing more (octet-stream, ogg). */
const AUDIO_TYPE = /^\s*(audio\/|application\/(octet-stream|ogg)\b)/i;

/** The error a JSON reply carries, as a string or `{message}`, to name in what is answered. */
function errorOf(error: unknown): string | undefined {
  if (typeof error === 'string' && error.trim()) return error.trim();
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message.trim() ? message.trim() : undefined;
}

/** An audio reply in any of its forms: bytes, JSON with a URL, or a ticket to wait for. */
export async function settleAudio(
  ctx: ToolContext,
  reply: {
    data: Buffer;
    contentType: string;
    status: number;
    headers: Record<string, string>;
    requestId?: string;
  },
  options: { model?: string; maxWaitS: number },
): Promise<AudioOut> {
  const cost = costFromHeaders(reply.headers);
  if (!reply.contentType.includes('json')) {
    // A page of another type (a proxy's or a login page) is not a track: said, never saved.
    if (!AUDIO_TYPE.test(reply.contentType)) {
      throw new UpstreamInvalidError(
        `The platform answered ${reply.contentType.split(';')[0]} where audio was expected; nothing was saved.`,
        { requestId: reply.requestId, fix: REPORT_UPSTREAM },
      );
    }
    return { status: 'completed', ...(await saveBytes(ctx, reply.data, reply.contentType)), cost };
  }
  const json = validateReply(
    TtsJson,
    parseJsonReply(reply.data.toString('utf8'), reply.requestId, reply.status),
    reply.requestId,
    'the speech route',
    reply.status,
  );
  const model = json.model ?? options.model;
  const charged = json.cost ?? cost;
  const duration = json.duration !== undefined ? { duration: json.duration } : {};
  if (json.audioUrl)
    return { status: 'completed', ...(await fetchAudio(ctx, json.audioUrl)), cost: charged, ...duration };
  if (!json.runId) {
    const said = errorOf(json.error);
    throw new UpstreamInvalidError(
      `The speech reply had neither audio, an audioUrl nor a runId${said ? `: ${said}` : '.'}`,
      {
        requestId: reply.requestId,
        fix: REPORT_UPSTREAM,
      },
    );
  }
  ctx.jobs.record({
    id: json.runId,
    kind: 'speech',
    model,
    ...(charged !== undefined ? { cost: { charged } } : {}),
  });
  const ticket = { cost: json.cost, paymentSource: json.paymentSource };
  return { ...(await awaitSpeech(ctx, json.runId, model, options.maxWaitS, ticket)), cost: charged };
}

async function fetchAudio(ctx: ToolContext, url: string): Promise<FileOut> {
  const { data, contentType } = await download(ctx, url, 'the audio');
  return saveBytes(ctx, data, contentType);
}

/** What the speech ticket said that its poll passes back (it helps the platform refund; issue 32). */
export interface SpeechTicket {
  cost?: number;
  paymentSource?: string;
}

/**
 * Polls `GET /api/tts/status` until completed or error, within `max_wait_s`. The poll carries
 * the ticket's `cost` and `paymentSource` and `isApiRequest`, as the platform's reference shows.
 */
export async function awaitSpeech(
  ctx: ToolContext,
  runId: string,
  model: string | undefined,
  maxWaitS: number,
  ticket: SpeechTicket = {},
): Promise<AudioOut> {
  const next = runNext('job_status', runId);
  const outcome = await followJob<z.infer<typeof TtsStatus>>(ctx, {
    id: runId,
    kind: 'speech',
    model,
    next,
    maxWaitS,
    resume: { model, ...ticket },
    startMessage: `speech job ${runId} queued; waiting for it`,
    interval: { initialMs: 1_000, maxMs: 3_000 },
    poll: async (): Promise<Step<z.infer<typeof TtsStatus>>> => {
      const res = await ctx.api.request({
        method: 'GET',
        path: '/api/tts/status',
        apiKeyHeader: 'x-api-key',
        query: { runId, model, cost: ticket.cost, paymentSource: ticket.paymentSource, isApiRequest: true },
        schema: TtsStatus,
      });
      const s = res.data;
      if (s.status === 'completed' || s.status === 'error') return { done: true, value: s };
      const queued = s.queuePosition !== undefined && s.queuePosition > 0;
      return {
        done: false,
        state: queued ? 'queued' : 'running',
        status: s.status,
        message: queued ? `in queue, position ${s.queuePosition}` : 'synthesizing speech',
        retryAfterMs: res.retryAfterMs,
      };
    },
  });
  if (!outcome.done) return { status: 'pending', run_id: runId, next: sayNext(next) };
  const s = outcome.value;
  if (s.status === 'error' || !s.audioUrl) {
    const message = s.error ?? 'The speech job failed.';
    // A failed job is not charged: what its call kept reserved goes.
    await ctx.budget.settleJob(runId, 0);
    throw jobFailed(
      ctx,
      { id: runId, kind: 'speech', status: 'error', error: message },
      `Speech job ${runId} failed: ${message}`,
      {
        upstreamCode: s.code,
        fix:
          s.code === 'CONTENT_POLICY_VIOLATION'
            ? 'Rephrase the text; the content policy refused it.'
            : 'Call speech_generate again.',
      },
    );
  }
  ctx.progress.report('speech ready; downloading', 1);
  const audio = await fetchAudio(ctx, s.audioUrl);
  jobDone(ctx, { id: runId, kind: 'speech', result: { ...audio, audio_url: s.audioUrl } });
  return {
    status: 'completed',
    run_id: runId,
    ...audio,
    ...(s.duration !== undefined ? { duration: s.duration } : {}),
  };
}

export function audioText(r: AudioOut): string {
  if (r.status === 'pending') return `Still running: ${r.run_id}. Next: call ${r.next}.`;
  const lines = [`Audio saved: ${whereSaved(r)}`];
  if (r.duration !== undefined) lines.push(`Duration: ${r.duration} s`);
  if (r.cost !== undefined) lines.push(`Cost: ${r.cost} USD`);
  return lines.join('\n');
}
