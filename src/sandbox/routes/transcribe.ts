import type { Context, Hono } from 'hono';
import { charge, refund, requireKey } from '../billing.js';
import { AUDIO_MODELS, type AudioModel } from '../catalog/media-models.js';
import { badRequest, SandboxError } from '../errors.js';
import { mediaAt } from '../media/files.js';
import { hintHeaders, jobTiming } from '../media/jobs.js';
import { perMinute } from '../media/limits.js';
import { durationOf, TRANSCRIPT_WORDS, transcriptOf } from '../media/transcript.js';
import type { KeyRecord } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord, pad, roundUsd } from '../util.js';

const UPLOAD_LIMIT = 3 * 1_048_576;

interface Transcription {
  id: string;
  key: KeyRecord;
  model: AudioModel;
  fileName: string;
  fileSize: number;
  seconds: number;
  minutes: number;
  language: string;
  diarize: boolean;
  cost: number;
  createdAt: number;
  status?: 'completed' | 'failed';
}

/**
 * Transcription (spec 2 §2.5, §3, §4.8) and video-link transcription (§2.6, §4.9). The sync model
 * answers at once; the async one gives a ticket polled with POST /api/transcribe/status that ends
 * `completed` (with diarization segments and word timings) or `failed` (a file named `corrupt*`).
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  for (const prefix of ['/api/transcribe', '/api/youtube-transcribe']) ctx.setEnvelope(prefix, 'legacy');
  const jobs = ctx.state.collection<Transcription>('transcription.jobs');

  // `/api/transcribe` and its poll take the key in `x-api-key` only (spec 2 §4.8; the poll: the
  // platform's reference, issue 32): a Bearer key is refused, as a strict platform would.
  app.post('/api/transcribe', async (c) => {
    const key = requireKey(c, ctx, { onlyApiKeyHeader: true });
    const input = await readInput(c, ctx);
    const model = AUDIO_MODELS.find((m) => m.id === (input.model ?? 'whisper-sandbox'));
    if (model?.type !== 'transcription') {
      throw new SandboxError(
        404,
        `Transcription model "${input.model}" not found; see /api/v1/audio-models.`,
        { code: 'model_not_found' },
      );
    }
    if (input.diarize && !model.diarization)
      throw badRequest(`${model.id} cannot diarize; use scribe-async.`, 'invalid_parameter_value', 'diarize');
    const seconds = input.actualDuration ?? input.seconds;
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    const cost = roundUsd(model.pricing.usd * minutes);
    charge(ctx, key, cost);
    const job: Transcription = {
      id: `tr_${pad(c.get('seq'))}`,
      key,
      model,
      fileName: input.fileName,
      fileSize: input.fileSize,
      seconds,
      minutes,
      language: input.language === 'auto' ? 'en' : input.language,
      diarize: input.diarize,
      cost,
      createdAt: ctx.now(),
    };
    if (!model.async) {
      return c.json({
        transcription: transcriptOf(job.seconds).text,
        metadata: { cost, chargedDuration: minutes, language: job.language },
      });
    }
    jobs.set(job.id, job);
    return c.json(
      {
        runId: job.id,
        cost,
        paymentSource: 'USD',
        fileName: job.fileName,
        fileSize: job.fileSize,
        chargedDuration: minutes,
        diarize: job.diarize,
      },
      202,
    );
  });

  app.post('/api/transcribe/status', (c) => {
    const key = requireKey(c, ctx, { onlyApiKeyHeader: true });
    const body = c.get('bodyJson');
    const id = isRecord(body) && typeof body.runId === 'string' ? body.runId : undefined;
    if (!id) throw badRequest('`runId` is required.', 'missing_required_parameter', 'runId');
    const job = jobs.get(id);
    if (!job) throw new SandboxError(404, `No transcription job ${id}.`, { code: 'not_found' });
    if (job.key.account.id !== key.account.id)
      throw new SandboxError(403, `Transcription ${id} belongs to another account.`, { code: 'forbidden' });
    if (!job.status && ctx.now() - job.createdAt >= jobTiming(ctx, 'transcriptionJobMs')) {
      job.status = /^corrupt/i.test(job.fileName) ? 'failed' : 'completed';
      if (job.status === 'failed') refund(job.key, job.cost);
    }
    if (job.status === 'failed')
      return c.json({
        status: 'failed',
        runId: id,
        error: 'The audio could not be decoded; the charge was refunded.',
      });
    if (!job.status) {
      hintHeaders(c, ctx);
      return c.json({ status: 'processing', runId: id }, 202);
    }
    const t = transcriptOf(job.seconds);
    return c.json({
      status: 'completed',
      runId: id,
      transcription: t.text,
      metadata: { cost: job.cost, chargedDuration: job.minutes, language: job.language },
      ...(job.diarize ? { diarization: { segments: t.segments } } : {}),
      // Speakers only when asked for.
      words: job.diarize ? t.words : t.words.map(({ speaker_id: _speaker, ...word }) => word),
    });
  });

  app.post('/api/youtube-transcribe', (c) => {
    const key = requireKey(c, ctx);
    perMinute(ctx, '/api/youtube-transcribe', c.req.header('x-forwarded-for') ?? 'local', 10);
    const body = c.get('bodyJson');
    const urls = isRecord(body) ? body.urls : undefined;
    if (!Array.isArray(urls) || urls.length === 0)
      throw badRequest('`urls` is required: 1 to 10 video links.', 'missing_required_parameter', 'urls');
    if (urls.length > 10)
      throw badRequest('At most 10 links per request.', 'invalid_parameter_value', 'urls');
    const results = urls.map((url) => linkTranscript(String(url)));
    const successes = results.filter((r) => r.success).length;
    if (successes > 0) charge(ctx, key, roundUsd(0.01 * successes));
    return c.json({
      transcripts: results.map(({ valid: _valid, ...item }) => item),
      summary: {
        requested: urls.length,
        processed: results.filter((r) => r.valid).length,
        successful: successes,
        failed: urls.length - successes,
        totalCost: roundUsd(0.01 * successes),
      },
    });
  });
}

interface Input {
  model?: string;
  language: string;
  diarize: boolean;
  actualDuration?: number;
  tagAudioEvents?: boolean;
  fileName: string;
  fileSize: number;
  seconds: number;
}

async function readInput(c: Context<SandboxEnv>, ctx: SandboxContext): Promise<Input> {
  const type = c.req.header('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) {
    const form = await c.req.formData();
    const audio = form.get('audio');
    if (!audio || typeof audio === 'string')
      throw badRequest('Send the audio file in the `audio` field.', 'missing_required_parameter', 'audio');
    if (audio.size > UPLOAD_LIMIT) {
      throw new SandboxError(413, 'The upload is larger than 3 MB; pass `audioUrl` instead.', {
        code: 'payload_too_large',
      });
    }
    const data = Buffer.from(await audio.arrayBuffer());
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    return {
      model: field('model'),
      language: field('language') ?? 'auto',
      diarize: field('diarize') === 'true',
      actualDuration: duration(field('actualDuration')),
      tagAudioEvents: flag(field('tagAudioEvents')),
      fileName: audio.name || 'audio',
      fileSize: data.length,
      seconds: durationOf(data),
    };
  }
  const body = c.get('bodyJson');
  if (!isRecord(body))
    throw badRequest('Send multipart with an `audio` file, or JSON with `audioUrl`.', 'invalid_json');
  if (typeof body.audioUrl !== 'string' || !/^https?:\/\//.test(body.audioUrl)) {
    throw badRequest('`audioUrl` must be an http(s) URL.', 'missing_required_parameter', 'audioUrl');
  }
  const known = mediaAt(ctx, body.audioUrl);
  return {
    model: typeof body.model === 'string' ? body.model : undefined,
    language: typeof body.language === 'string' ? body.language : 'auto',
    diarize: body.diarize === true,
    actualDuration: duration(body.actualDuration),
    tagAudioEvents: flag(body.tagAudioEvents),
    fileName: new URL(body.audioUrl).pathname.split('/').pop() || 'audio',
    fileSize: known?.data.length ?? 0,
    seconds: known ? durationOf(known.data) : 60,
  };
}

const VIDEO_LINK =
  /^https?:\/\/(www\.|m\.)?(youtube\.com\/(watch\?v=|shorts\/|embed\/|live\/)|youtu\.be\/)([\w-]{6,})/;

function linkTranscript(url: string) {
  const match = VIDEO_LINK.exec(url);
  if (!match)
    return {
      url,
      success: false,
      valid: false,
      error: 'Not a video link (watch, short, embed, mobile or live form).',
    };
  const id = match[4] ?? '';
  if (/private|unavailable/i.test(id))
    return { url, success: false, valid: true, error: 'No transcript is available for this video.' };
  return {
    url,
    success: true,
    valid: true,
    title: `Sandbox video ${id}`,
    transcript: `This is the sandbox transcript of video ${id}. ${TRANSCRIPT_WORDS.join(' ')}.`,
  };
}

/** `actualDuration` (spec 2 §4.8): the audio's length in seconds, a positive number (a form sends text). */
function duration(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const seconds = typeof value === 'string' ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0)
    throw badRequest(
      '`actualDuration` must be a positive number of seconds.',
      'invalid_parameter_value',
      'actualDuration',
    );
  return seconds;
}

/** `tagAudioEvents` (spec 2 §4.8): a boolean (`true`/`false` in a form). */
function flag(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badRequest('`tagAudioEvents` must be a boolean.', 'invalid_parameter_value', 'tagAudioEvents');
}
