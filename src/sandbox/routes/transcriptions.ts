import type { Context, Hono } from 'hono';
import { charge, requireKey } from '../billing.js';
import { AUDIO_MODELS } from '../catalog/media-models.js';
import { badRequest, SandboxError } from '../errors.js';
import { mediaAt } from '../media/files.js';
import { durationOf, transcriptOf } from '../media/transcript.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord, roundUsd } from '../util.js';

/** Direct uploads are capped as on the other transcription route (spec 2 §8: 3 MB; larger by URL). */
const UPLOAD_LIMIT = 3 * 1_048_576;

interface Audio {
  model: unknown;
  language: string;
  seconds: number;
}

/**
 * Common-format transcription (spec 2 §4.8; GAPS.md "Common-format transcription"): multipart
 * `file`, `model`, `language`, or JSON `{model, file_url | audio_url, language}`; the reply is
 * `{text, language, duration}`. Every transcription model answers synchronously here.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.post('/api/v1/audio/transcriptions', async (c) => {
    const key = requireKey(c, ctx);
    const audio = await readAudio(c, ctx);
    if (typeof audio.model !== 'string' || !audio.model)
      throw badRequest(
        '`model` is required: a transcription model from /api/v1/audio-models.',
        'missing_required_parameter',
        'model',
      );
    const model = AUDIO_MODELS.find((m) => m.id === audio.model && m.type === 'transcription');
    if (!model) {
      throw badRequest(
        `Transcription model "${audio.model}" not found; see /api/v1/audio-models.`,
        'model_not_found',
        'model',
      );
    }
    const minutes = Math.max(1, Math.ceil(audio.seconds / 60));
    charge(ctx, key, roundUsd(model.pricing.usd * minutes));
    return c.json({
      text: transcriptOf(audio.seconds).text,
      language: audio.language === 'auto' ? 'en' : audio.language,
      duration: Math.round(audio.seconds * 100) / 100,
    });
  });
}

async function readAudio(c: Context<SandboxEnv>, ctx: SandboxContext): Promise<Audio> {
  const type = c.req.header('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) {
    const form = await c.req.formData();
    const file = form.get('file');
    if (!file || typeof file === 'string')
      throw badRequest('Send the audio in the `file` field.', 'missing_required_parameter', 'file');
    if (file.size > UPLOAD_LIMIT) {
      throw new SandboxError(413, 'The upload is larger than 3 MB; send `file_url` in a JSON body instead.', {
        code: 'payload_too_large',
      });
    }
    const language = form.get('language');
    return {
      model: form.get('model'),
      language: typeof language === 'string' && language ? language : 'auto',
      seconds: durationOf(Buffer.from(await file.arrayBuffer())),
    };
  }
  const body = c.get('bodyJson');
  if (!isRecord(body))
    throw badRequest(
      'Send multipart with a `file`, or JSON with `file_url` (or `audio_url`).',
      'invalid_json',
    );
  const url = body.file_url ?? body.audio_url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url))
    throw badRequest(
      '`file_url` (or `audio_url`) must be an http(s) URL.',
      'missing_required_parameter',
      'file_url',
    );
  const known = mediaAt(ctx, url);
  return {
    model: body.model,
    language: typeof body.language === 'string' && body.language ? body.language : 'auto',
    seconds: known ? durationOf(known.data) : 60,
  };
}
