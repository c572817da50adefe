import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import type { MediaInput } from '../../src/files/input.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import type { TranscribeReply } from './transcription.js';

/**
 * The common transcription format (spec 2 §4.8; GAPS.md): `POST /api/v1/audio/transcriptions`,
 * multipart `file`, `model`, `language`, or JSON `{model, file_url, language}`; reply
 * `{text, language, duration}`. transcribe uses it where `/api/transcribe` answers 404.
 */
const COMMON_PATH = '/api/v1/audio/transcriptions';

const CommonReply = z.looseObject({
  text: z.string(),
  language: z.string().optional(),
  duration: z.number().optional(),
});

export async function transcribeCommon(
  ctx: ToolContext,
  audio: MediaInput,
  fields: { model?: string; language?: string; diarize?: boolean },
): Promise<TranscribeReply> {
  // Checked only now: these are rules of this route, which is used when the other is absent.
  if (!fields.model) {
    throw new InputError('The transcription route here needs a model (/api/transcribe is absent).', {
      param: 'model',
      fix: 'Pass model: a transcription model from models_list kind "audio".',
    });
  }
  if (fields.diarize) {
    throw new InputError('Diarization needs /api/transcribe, which is absent here.', {
      param: 'diarize',
      fix: 'Drop diarize.',
    });
  }
  ctx.progress.report(`/api/transcribe answered 404; using ${COMMON_PATH}`);
  const language = fields.language ? { language: fields.language } : {};
  let data: z.infer<typeof CommonReply>;
  if (audio.kind === 'url') {
    ({ data } = await ctx.api.request({
      method: 'POST',
      path: COMMON_PATH,
      body: { model: fields.model, file_url: audio.url, ...language },
      schema: CommonReply,
    }));
  } else {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(audio.data)], { type: audio.mimeType }), audio.name);
    form.set('model', fields.model);
    if (fields.language) form.set('language', fields.language);
    ({ data } = await ctx.api.request({ method: 'POST', path: COMMON_PATH, form, schema: CommonReply }));
  }
  return { text: data.text, ...(data.language ? { metadata: { language: data.language } } : {}) };
}
