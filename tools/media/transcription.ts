import { z } from 'zod';
import { followJob, jobDone, jobFailed } from '../../src/jobs/follow.js';
import type { Step } from '../../src/jobs/wait.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { runNext, sayNext } from '../../src/next-call.js';
import { NumberLike } from '../../src/replies/number.js';
import { readReply } from '../../src/replies/read.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { FileFields, saveBytes, whereSaved } from './shared.js';

/**
 * Transcription replies (spec 2 §2.5, §4.8): the sync reply, the 202 ticket and the status reply,
 * the wait for an async job, and the result with its inline caps. Shared by transcribe (submit)
 * and job_status (resume).
 */
const Segment = z.object({
  speaker: z.string().optional(),
  start: NumberLike,
  end: NumberLike,
  text: z.string(),
});
// Words carry `type` and `speaker_id` (spec 2 §2.5 lists `type`; the platform's reference shows
// both, issue 32); one of another type is not shown.
const Word = z.looseObject({
  type: z.string().optional().catch(undefined),
  text: z.string(),
  start: NumberLike.optional(),
  end: NumberLike.optional(),
  speaker_id: z.union([z.string(), z.number()]).optional().catch(undefined),
});
const Done = z.looseObject({
  transcription: z.string().optional(),
  text: z.string().optional(),
  metadata: z
    .looseObject({
      cost: NumberLike.optional(),
      chargedDuration: NumberLike.optional(),
      language: z.string().optional(),
    })
    .optional(),
  // Segments and words are read one by one (finish): one that cannot be used is left out and named.
  diarization: z.looseObject({ segments: z.array(z.unknown()) }).optional(),
  words: z.array(z.unknown()).optional(),
});
// Numbers may come as numeric strings: the spec fixes none of their types.
/** Sync reply, 202 ticket, or a status reply (spec 2 §2.5): all optional, told apart by fields. */
export const TranscribeReply = Done.extend({
  runId: z.string().optional(),
  status: z.string().optional(),
  error: z.string().optional(),
  cost: NumberLike.optional(),
  chargedDuration: NumberLike.optional(),
  // The ticket's fields its poll passes back; one of another type is not passed on.
  paymentSource: z.string().optional().catch(undefined),
  fileName: z.string().optional().catch(undefined),
  fileSize: NumberLike.optional().catch(undefined),
  diarize: z.boolean().optional().catch(undefined),
});
export type TranscribeReply = z.infer<typeof TranscribeReply>;

/** Inline caps; the full transcript goes to a JSON file when it is bigger. */
const MAX_WORDS = 200;
const MAX_SEGMENTS = 100;
const MAX_TEXT = 20_000;

// Loose: a `not_usable` note passes without being listed (tokens).
export const TranscriptOut = z.looseObject({
  status: z.enum(['completed', 'pending']),
  text: z.string().optional(),
  language: z.string().optional(),
  charged_min: z.number().optional(),
  cost: z.number().optional(),
  segments: z.array(z.unknown()).optional().describe('{speaker,start,end,text}'),
  // Each word also keeps its `type` and `speaker_id` when sent (not listed: tokens).
  words: z.array(z.unknown()).optional().describe('{text,start,end}'),
  ...FileFields,
  run_id: z.string().optional(),
  next: z.string().optional(),
});
export type TranscriptOut = z.infer<typeof TranscriptOut>;
/** What a transcript's speakers said: text from the audio or video, however it was fetched. */
export const TRANSCRIPT_FIELDS = ['text', 'segments', 'words'] as const;

export type Settled = { done: TranscribeReply } | { pending: { runId: string } };

/** Polls the transcription status with its ticket until it ends, within `max_wait_s`. */
export async function awaitTranscript(
  ctx: ToolContext,
  runId: string,
  ticket: Record<string, unknown>,
  maxWaitS: number,
): Promise<Settled> {
  const outcome = await followJob<TranscribeReply>(ctx, {
    id: runId,
    kind: 'transcription',
    next: runNext('job_status', runId),
    maxWaitS,
    resume: ticket,
    startMessage: `transcription ${runId} accepted; waiting for it`,
    // The spec suggests a poll every 5 s; start sooner for short files.
    interval: { initialMs: 1_000, maxMs: 5_000 },
    poll: async (): Promise<Step<TranscribeReply>> => {
      const res = await ctx.api.request({
        method: 'POST',
        path: '/api/transcribe/status',
        apiKeyHeader: 'x-api-key',
        body: ticket,
        schema: TranscribeReply,
      });
      const status = res.data.status;
      if (
        status === 'completed' ||
        status === 'failed' ||
        (res.status === 200 && !status && res.data.transcription !== undefined)
      ) {
        return { done: true, value: res.data };
      }
      return {
        done: false,
        state: 'running',
        status: status ?? 'pending',
        message: `transcribing (${status ?? 'in progress'})`,
        retryAfterMs: res.retryAfterMs,
      };
    },
  });
  if (!outcome.done) return { pending: { runId } };
  if (outcome.value.status === 'failed') {
    const message = outcome.value.error ?? 'The transcription failed.';
    throw jobFailed(
      ctx,
      { id: runId, kind: 'transcription', error: message },
      `Transcription ${runId} failed: ${message}`,
      { fix: 'Check the audio file and transcribe again.' },
    );
  }
  jobDone(ctx, { id: runId, kind: 'transcription' });
  return { done: { ...outcome.value, runId } };
}

export async function finish(ctx: ToolContext, settled: Settled): Promise<TranscriptOut> {
  if ('pending' in settled) {
    const { runId } = settled.pending;
    return { status: 'pending', run_id: runId, next: sayNext(runNext('job_status', runId)) };
  }
  const r = settled.done;
  const text = r.transcription ?? r.text ?? '';
  const readSegments = r.diarization
    ? usableList(z.looseObject(Segment.shape), r.diarization.segments, { nameKeys: [] })
    : undefined;
  const readWords = r.words ? usableList(Word, r.words, { nameKeys: [] }) : undefined;
  const notUsable = [
    leftOutNote('segment', readSegments?.left_out ?? []),
    leftOutNote('word', readWords?.left_out ?? []),
  ]
    .filter(Boolean)
    .join('; ');
  const segments = readSegments?.items.map((s) => ({
    ...(s.speaker ? { speaker: s.speaker } : {}),
    start: s.start,
    end: s.end,
    text: s.text,
  }));
  const words = readWords?.items.map((w) => ({
    text: w.text,
    ...(w.start !== undefined ? { start: w.start } : {}),
    ...(w.end !== undefined ? { end: w.end } : {}),
    ...(w.type !== undefined ? { type: w.type } : {}),
    ...(w.speaker_id !== undefined ? { speaker_id: w.speaker_id } : {}),
  }));
  const cut =
    text.length > MAX_TEXT || (words?.length ?? 0) > MAX_WORDS || (segments?.length ?? 0) > MAX_SEGMENTS;
  const file = cut
    ? await saveBytes(
        ctx,
        Buffer.from(JSON.stringify({ text, segments, words }, null, 1)),
        'application/json',
      )
    : undefined;
  const runId = typeof r.runId === 'string' ? r.runId : undefined;
  return {
    status: 'completed',
    text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text,
    ...(r.metadata?.language ? { language: r.metadata.language } : {}),
    ...(r.metadata?.chargedDuration !== undefined ? { charged_min: r.metadata.chargedDuration } : {}),
    ...(r.metadata?.cost !== undefined ? { cost: r.metadata.cost } : {}),
    ...(segments ? { segments: segments.slice(0, MAX_SEGMENTS) } : {}),
    ...(words && words.length <= MAX_WORDS ? { words } : {}),
    ...file,
    ...(runId ? { run_id: runId } : {}),
    ...(notUsable ? { not_usable: notUsable } : {}),
  };
}

export function transcriptText(r: TranscriptOut): string {
  if (r.status === 'pending') return `Still transcribing: ${r.run_id}. Next: call ${r.next}.`;
  const lines = [r.text ?? ''];
  const segments = readReply(z.array(Segment), r.segments ?? []);
  if (segments.success && segments.data.length) {
    lines.push('', ...segments.data.map((s) => `[${s.speaker ?? '?'} ${s.start}-${s.end}] ${s.text}`));
  }
  const meta = [
    r.language && `language ${r.language}`,
    r.charged_min !== undefined && `${r.charged_min} min charged`,
    r.cost !== undefined && `cost ${r.cost} USD`,
  ].filter(Boolean);
  if (meta.length) lines.push('', meta.join(', '));
  if (r.uri) lines.push(`Full transcript: ${whereSaved(r)}`);
  if (typeof r.not_usable === 'string') lines.push(r.not_usable);
  return lines.join('\n');
}
