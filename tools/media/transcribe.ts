import { z } from 'zod';
import { InputError, JobFailedError } from '../../src/errors.js';
import { LIMITS, readMediaInput } from '../../src/files/input.js';
import { hintFromHeaders, type Step, waitForJob } from '../../src/jobs/wait.js';
import { defineTool, SPEND, type ToolContext } from '../../src/mcp/define-tool.js';
import {
  FileFields,
  filesContent,
  knownJob,
  MaxWait,
  nextCall,
  recordJob,
  saveBytes,
  waitBudgetMs,
  whereSaved,
} from './shared.js';

const Segment = z.object({
  speaker: z.string().optional(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
});
const Word = z.looseObject({
  type: z.string().optional(),
  text: z.string(),
  start: z.number().optional(),
  end: z.number().optional(),
});
const Done = z.looseObject({
  transcription: z.string().optional(),
  text: z.string().optional(),
  metadata: z
    .looseObject({
      cost: z.number().optional(),
      chargedDuration: z.number().optional(),
      language: z.string().optional(),
    })
    .optional(),
  diarization: z.looseObject({ segments: z.array(z.looseObject(Segment.shape)) }).optional(),
  words: z.array(Word).optional(),
});
/** Sync reply, 202 ticket, or a status reply (spec 2 §2.5): all optional, told apart by fields. */
const Reply = Done.extend({
  runId: z.string().optional(),
  status: z.string().optional(),
  error: z.string().optional(),
  cost: z.number().optional(),
  chargedDuration: z.number().optional(),
});
type Reply = z.infer<typeof Reply>;

/** Inline caps; the full transcript goes to a JSON file when it is bigger. */
const MAX_WORDS = 200;
const MAX_SEGMENTS = 100;
const MAX_TEXT = 20_000;

const Output = z.object({
  status: z.enum(['completed', 'pending']),
  text: z.string().optional(),
  language: z.string().optional(),
  charged_min: z.number().optional(),
  cost: z.number().optional(),
  segments: z.array(z.unknown()).optional().describe('{speaker,start,end,text}'),
  words: z.array(z.unknown()).optional().describe('{text,start,end}'),
  ...FileFields,
  run_id: z.string().optional(),
  next: z.string().optional(),
});
type Output = z.infer<typeof Output>;

export default defineTool({
  name: 'transcribe',
  title: 'Transcribe audio',
  description:
    'Speech to text from a local file (≤3 MB) or URL; optional diarization and word timings. Slow jobs return a run_id to resume with.',
  toolset: 'media',
  credential: 'api_key',
  input: z.object({
    file: z.string().optional().describe('path or data URL ≤3 MB'),
    url: z.string().optional().describe('audio URL, any size'),
    model: z.string().optional(),
    language: z.string().optional(),
    diarize: z.boolean().optional(),
    run_id: z.string().optional().describe('resume a job'),
    max_wait_s: MaxWait,
  }),
  output: Output,
  annotations: SPEND,
  task: true,
  async run(args, ctx) {
    if (args.run_id) {
      const ticket = knownJob(ctx, args.run_id)?.resume;
      if (!ticket) {
        throw new InputError(`This server has no ticket for ${args.run_id}.`, {
          fix: 'Resume only jobs this server started; otherwise transcribe again.',
        });
      }
      return finish(ctx, await awaitTranscript(ctx, args.run_id, ticket, args.max_wait_s));
    }
    if (!args.file === !args.url)
      throw new InputError('Pass exactly one of file or url.', {
        fix: 'file for a local file up to 3 MB, url for anything larger.',
      });
    const fields = {
      model: args.model,
      language: args.language,
      diarize: args.diarize,
    };
    let res: { data: Reply; status: number };
    if (args.url) {
      ctx.progress.report('sending the audio URL');
      res = await ctx.api.request({
        method: 'POST',
        path: '/api/transcribe',
        body: { audioUrl: args.url, ...fields },
        schema: Reply,
      });
    } else {
      const input = await readMediaInput(args.file ?? '', ctx.files, {
        maxBytes: LIMITS.transcriptionUpload,
        purpose: 'transcription',
        argument: 'file',
      });
      if (input.kind === 'url') {
        res = await ctx.api.request({
          method: 'POST',
          path: '/api/transcribe',
          body: { audioUrl: input.url, ...fields },
          schema: Reply,
        });
      } else {
        const form = new FormData();
        form.set('audio', new Blob([new Uint8Array(input.data)], { type: input.mimeType }), input.name);
        for (const [key, value] of Object.entries(fields))
          if (value !== undefined) form.set(key, String(value));
        ctx.progress.report(`uploading ${input.name} (${input.data.length} bytes)`);
        res = await ctx.api.request({ method: 'POST', path: '/api/transcribe', form, schema: Reply });
      }
    }
    if (res.status === 202 && res.data.runId) {
      const { runId } = res.data;
      const ticket = {
        runId,
        cost: res.data.cost,
        paymentSource: res.data.paymentSource,
        isApiRequest: true,
        fileName: res.data.fileName,
        fileSize: res.data.fileSize,
        chargedDuration: res.data.chargedDuration,
        diarize: res.data.diarize,
      };
      recordJob(ctx, {
        id: runId,
        kind: 'transcription',
        model: args.model,
        status: 'pending',
        resume: ticket,
        ...(res.data.cost !== undefined ? { cost: { charged: res.data.cost } } : {}),
      });
      const out = await finish(ctx, await awaitTranscript(ctx, runId, ticket, args.max_wait_s));
      return {
        ...out,
        ...(out.cost === undefined && res.data.cost !== undefined ? { cost: res.data.cost } : {}),
        ...(out.charged_min === undefined && res.data.chargedDuration !== undefined
          ? { charged_min: res.data.chargedDuration }
          : {}),
      };
    }
    return finish(ctx, { done: res.data });
  },
  text: (r) => {
    if (r.status === 'pending') return `Still transcribing: ${r.run_id}. Next: call ${r.next}.`;
    const lines = [r.text ?? ''];
    const segments = z.array(Segment).safeParse(r.segments ?? []);
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
    return lines.join('\n');
  },
  content: (r) => filesContent([r]),
});

type Settled = { done: Reply } | { pending: { runId: string } };

async function awaitTranscript(
  ctx: ToolContext,
  runId: string,
  ticket: Record<string, unknown>,
  maxWaitS: number,
): Promise<Settled> {
  recordJob(ctx, { id: runId, kind: 'transcription', next: nextCall('transcribe', runId) });
  const outcome = await waitForJob<Reply>({
    signal: ctx.signal,
    progress: ctx.progress,
    deadlineMs: waitBudgetMs(ctx, maxWaitS),
    startMessage: `transcription ${runId} accepted; waiting for it`,
    // The spec suggests a poll every 5 s; start sooner for short files.
    interval: { initialMs: 1_000, maxMs: 5_000 },
    poll: async (): Promise<Step<Reply>> => {
      const res = await ctx.api.request({
        method: 'POST',
        path: '/api/transcribe/status',
        body: ticket,
        schema: Reply,
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
        message: `transcribing (${status ?? 'in progress'})`,
        retryAfterMs: hintFromHeaders(res.headers),
      };
    },
    onPending: (step, polls) =>
      recordJob(ctx, { id: runId, kind: 'transcription', status: 'pending', message: step.message, polls }),
  });
  if (!outcome.done) return { pending: { runId } };
  if (outcome.value.status === 'failed') {
    const message = outcome.value.error ?? 'The transcription failed.';
    recordJob(ctx, {
      id: runId,
      kind: 'transcription',
      status: 'failed',
      error: message,
      next: 'transcribe again',
    });
    throw new JobFailedError(`Transcription ${runId} failed: ${message}`, {
      fix: 'Check the audio file and transcribe again.',
      details: { run_id: runId },
    });
  }
  recordJob(ctx, { id: runId, kind: 'transcription', status: 'completed', progress: 1, next: 'done' });
  return { done: { ...outcome.value, runId } };
}

async function finish(ctx: ToolContext, settled: Settled): Promise<Output> {
  if ('pending' in settled) {
    const { runId } = settled.pending;
    return { status: 'pending', run_id: runId, next: nextCall('transcribe', runId) };
  }
  const r = settled.done;
  const text = r.transcription ?? r.text ?? '';
  const segments = r.diarization?.segments.map((s) => ({
    ...(s.speaker ? { speaker: s.speaker } : {}),
    start: s.start,
    end: s.end,
    text: s.text,
  }));
  const words = r.words?.map((w) => ({
    text: w.text,
    ...(w.start !== undefined ? { start: w.start } : {}),
    ...(w.end !== undefined ? { end: w.end } : {}),
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
  };
}
