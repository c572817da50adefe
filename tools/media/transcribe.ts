import { z } from 'zod';
import { InputError, routeMissing } from '../../src/errors.js';
import { LIMITS, type MediaInput, readMediaInput } from '../../src/files/input.js';
import { MaxWait } from '../../src/jobs/follow.js';
import { defineTool, LONG_RESULT_CHARS, type ToolContext } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { filesContent } from './shared.js';
import {
  awaitTranscript,
  finish,
  TRANSCRIPT_FIELDS,
  TranscribeReply,
  TranscriptOut,
  transcriptText,
} from './transcription.js';
import { transcribeCommon } from './transcription-common.js';

export default defineTool({
  name: 'transcribe',
  title: 'Transcribe audio',
  description:
    'Convert speech in an audio or video file to text: transcript of a meeting, interview, podcast, lecture, voice memo; subtitles with timings, speaker labels. Slow: job_status. Links: transcribe_video_links.',
  toolset: 'media',
  long: 'job',
  resultChars: LONG_RESULT_CHARS,
  credential: 'api_key',
  input: z.object({
    file: z.string().optional(),
    url: z.string().optional(),
    model: z.string().optional(),
    language: z.string().optional(),
    diarize: z.boolean().optional(),
    tag_audio_events: z.boolean().optional(),
    actual_duration: z.number().optional(),
    max_wait_s: MaxWait,
  }),
  output: TranscriptOut,
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    if (!args.file === !args.url)
      throw new InputError('Pass exactly one of file or url.', {
        fix: 'file for a local file up to 3 MB, url for anything larger.',
      });
    const fields = {
      model: args.model,
      language: args.language,
      diarize: args.diarize,
      tagAudioEvents: args.tag_audio_events,
      actualDuration: args.actual_duration,
    };
    if (args.actual_duration !== undefined && !(args.actual_duration > 0))
      throw new InputError('`actual_duration` is the audio length in seconds, above 0.', {
        param: 'actual_duration',
      });
    const audio: MediaInput = args.url
      ? { kind: 'url', url: args.url }
      : await readMediaInput(args.file ?? '', ctx.files, {
          maxBytes: LIMITS.transcriptionUpload,
          purpose: 'transcription',
          argument: 'file',
        });
    let res: { data: TranscribeReply; status: number };
    try {
      res = await submit(ctx, audio, fields);
    } catch (error) {
      if (!routeMissing(error)) throw error;
      return finish(ctx, { done: await transcribeCommon(ctx, audio, fields) });
    }
    if (res.status === 202 && res.data.runId) {
      const { runId } = res.data;
      // The poll's body (spec 2 §4.8): the ticket's fields, and where the ticket left one out, what
      // this call sent (the file's name and size; diarize as asked, false when not).
      const ticket = {
        runId,
        cost: res.data.cost,
        paymentSource: res.data.paymentSource,
        isApiRequest: true,
        fileName: res.data.fileName ?? sentName(audio),
        fileSize: res.data.fileSize ?? (audio.kind === 'url' ? undefined : audio.data.length),
        chargedDuration: res.data.chargedDuration,
        diarize: res.data.diarize ?? args.diarize ?? false,
      };
      ctx.jobs.record({
        id: runId,
        kind: 'transcription',
        model: args.model,
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
  cost: {
    spent: (r) => r.cost,
  },
  untrusted: TRANSCRIPT_FIELDS,
  text: transcriptText,
  content: (r) => filesContent([r]),
});

/** The file name the submit sent: the upload's name, or the last part of the URL's path. */
function sentName(audio: MediaInput): string | undefined {
  if (audio.kind !== 'url') return audio.name;
  const last = URL.canParse(audio.url) ? new URL(audio.url).pathname.split('/').pop() : undefined;
  return last || undefined;
}

/** `POST /api/transcribe`: JSON with `audioUrl`, or multipart with the file as `audio`. */
function submit(
  ctx: ToolContext,
  audio: MediaInput,
  fields: Record<string, string | number | boolean | undefined>,
): Promise<{ data: TranscribeReply; status: number }> {
  if (audio.kind === 'url') {
    ctx.progress.report('sending the audio URL');
    return ctx.api.request({
      method: 'POST',
      path: '/api/transcribe',
      apiKeyHeader: 'x-api-key',
      body: { audioUrl: audio.url, ...fields },
      schema: TranscribeReply,
    });
  }
  const form = new FormData();
  form.set('audio', new Blob([new Uint8Array(audio.data)], { type: audio.mimeType }), audio.name);
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.set(key, String(value));
  ctx.progress.report(`uploading ${audio.name} (${audio.data.length} bytes)`);
  return ctx.api.request({
    method: 'POST',
    path: '/api/transcribe',
    apiKeyHeader: 'x-api-key',
    form,
    schema: TranscribeReply,
  });
}
