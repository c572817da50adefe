import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { MaxWait } from '../../src/jobs/follow.js';
import { defineTool, LONG_RESULT_CHARS } from '../../src/mcp/define-tool.js';
import { sayNext } from '../../src/next-call.js';
import { answerText } from '../text/reply.js';
import { awaitResponse, RESPONSE_KIND } from '../text/stored.js';
import { audioText, awaitSpeech } from './audio.js';
import { filesContent } from './shared.js';
import {
  awaitTranscript,
  finish,
  TRANSCRIPT_FIELDS,
  TranscriptOut,
  transcriptText,
} from './transcription.js';

const KINDS = ['speech', 'transcription', RESPONSE_KIND] as const;
/** A speech job's kept ticket fields, which its poll passes back. */
const SpeechResume = z.object({
  cost: z.number().optional().catch(undefined),
  paymentSource: z.string().optional().catch(undefined),
});

/**
 * Speech, transcription, or a stored chat response (background or not: reading one is free), in
 * one shape (status: completed or pending). A response's tool calls are lines of its `text`
 * (id, name, arguments), which keeps this shared schema small.
 */
const Output = TranscriptOut.extend({
  status: z.string(),
  kind: z.enum(KINDS),
});

export default defineTool({
  name: 'job_status',
  title: 'Job status',
  description:
    'Done yet? Check or wait for a speech, transcription or background chat run to finish, by run_id, after a timeout; saves the result. Free. Videos: video_status.',
  toolset: 'media',
  long: 'job',
  resultChars: LONG_RESULT_CHARS,
  credential: 'api_key',
  nature: 'read',
  input: z.object({
    run_id: z.string(),
    kind: z.enum(KINDS).optional().describe('if not started here'),
    model: z.string().optional(),
    max_wait_s: MaxWait,
  }),
  output: Output,
  async run(args, ctx) {
    const known = await ctx.jobs.get(args.run_id);
    const kind = args.kind ?? known?.kind;
    if (kind === RESPONSE_KIND) {
      const r = await awaitResponse(ctx, args.run_id, args.max_wait_s, known?.model);
      return {
        kind: RESPONSE_KIND,
        status: r.next ? 'pending' : 'completed',
        text: answerText(r),
        ...(r.cost ? { cost: r.cost.amount } : {}),
        run_id: args.run_id,
        ...(r.next ? { next: r.next } : {}),
      };
    }
    if (kind === 'speech') {
      const model = args.model ?? known?.model;
      const ticket = SpeechResume.parse(known?.resume ?? {});
      return {
        kind: 'speech' as const,
        ...(await awaitSpeech(ctx, args.run_id, model, args.max_wait_s, ticket)),
      };
    }
    if (kind === 'transcription') {
      // The status route takes the ticket the submit returned, which only the server that submitted keeps.
      if (!known?.resume) {
        throw new InputError(`This server has no ticket for transcription ${args.run_id}.`, {
          fix: 'Resume only transcriptions this server started; otherwise transcribe again.',
          param: 'run_id',
        });
      }
      return {
        kind: 'transcription' as const,
        ...(await finish(ctx, await awaitTranscript(ctx, args.run_id, known.resume, args.max_wait_s))),
      };
    }
    throw new InputError(`No speech or transcription job "${args.run_id}" is known to this server.`, {
      fix: known
        ? `That is a ${known.kind} job: call ${known.next ? sayNext(known.next) : `${known.kind === 'video' ? 'video_status' : 'job_status'}`}.`
        : 'Pass kind: "speech" for a speech job started elsewhere, or "response" for a stored chat response.',
      param: 'run_id',
    });
  },
  untrusted: (r) => (r.kind === 'transcription' ? TRANSCRIPT_FIELDS : []),
  text: (r) =>
    r.kind === 'speech'
      ? audioText(r)
      : r.kind === RESPONSE_KIND
        ? responseText(r)
        : transcriptText({ ...r, status: r.status === 'pending' ? 'pending' : 'completed' }),
  content: (r) => filesContent([r]),
});

function responseText(r: z.infer<typeof Output>): string {
  if (r.next) return `Response ${r.run_id} is still running. Next: call ${r.next}.`;
  return `${r.text ?? ''}\n[response ${r.run_id}${r.cost !== undefined ? ` · ${r.cost} USD` : ''}]`;
}
