import type { Context, Hono } from 'hono';
import { charge, refund, requireKey } from '../billing.js';
import { jsonBody, optionalBoolean, optionalNumber, optionalString } from '../body.js';
import { AUDIO_MODELS, type AudioModel } from '../catalog/media-models.js';
import { SANDBOX_WORD } from '../constants.js';
import { badRequest, SandboxError } from '../errors.js';
import { makeMp3, makeWav, speechSeconds } from '../media/audio.js';
import { putMedia } from '../media/files.js';
import { hintHeaders, jobTiming, phaseAt } from '../media/jobs.js';
import { FAIL_TRIGGER, policyError, violatesPolicy } from '../media/policy.js';
import type { KeyRecord } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { pad, roundUsd, sleep, stableHash } from '../util.js';

/** Binary replies carry what was charged in this header (JSON replies carry `cost`). */
export const COST_HEADER = `x-${SANDBOX_WORD}-cost`;
/** The studio model renders short texts at once and queues longer ones. */
const STUDIO_SYNC_CHARS = 200;

interface SpeechJob {
  id: string;
  key: KeyRecord;
  model: AudioModel;
  text: string;
  format: string;
  cost: number;
  createdAt: number;
  status?: 'completed' | 'error';
  audioUrl?: string;
  contentType?: string;
  error?: string;
  code?: string;
}

/**
 * Speech and music (spec 2 §3, §4.7; GAPS.md speech status). `/api/tts` answers in three forms:
 * audio bytes (tts-mini), JSON with `audioUrl` (tts-studio, short text) or a 202 ticket
 * (tts-studio, long text) that goes pending -> completed | error.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/tts', 'legacy');
  const jobs = ctx.state.collection<SpeechJob>('speech.jobs');

  // `/api/tts` and its poll take the key in `x-api-key` only (spec 2 §4.7; the poll: the platform's
  // reference, issue 32): a Bearer key is refused, as a strict platform would.
  app.post('/api/tts', (c) => {
    const key = requireKey(c, ctx, { onlyApiKeyHeader: true });
    const body = jsonBody(c);
    const text = optionalString(body, 'text');
    if (!text?.trim()) throw badRequest('`text` is required.', 'missing_required_parameter', 'text');
    const model = findAudio(optionalString(body, 'model') ?? 'tts-mini', ['tts']);
    if (model.max_characters && text.length > model.max_characters) {
      throw badRequest(
        `${model.id} takes at most ${model.max_characters} characters of text.`,
        'invalid_parameter_value',
        'text',
      );
    }
    optionalString(body, 'voice', model.voices);
    optionalNumber(body, 'speed', { min: 0.25, max: 4 });
    for (const name of ['stability', 'similarity_boost', 'style']) {
      if (body[name] !== undefined && !model.async)
        throw badRequest(
          `\`${name}\` needs a premium voice model (tts-studio).`,
          'invalid_parameter_value',
          name,
        );
      optionalNumber(body, name, { min: 0, max: 1 });
    }
    const format = optionalString(body, 'response_format', model.formats) ?? 'mp3';
    const async = model.async && text.length > STUDIO_SYNC_CHARS;
    if (violatesPolicy(text) && !async) throw policyError('text', true);
    const cost = roundUsd((model.pricing.usd * Math.max(1, text.length)) / 1000);
    charge(ctx, key, cost);
    if (async) {
      const job: SpeechJob = {
        id: `tts_${pad(c.get('seq'))}`,
        key,
        model,
        text,
        format,
        cost,
        createdAt: ctx.now(),
      };
      jobs.set(job.id, job);
      return c.json({ runId: job.id, model: model.id, status: 'pending', cost, paymentSource: 'USD' }, 202);
    }
    const audio = render(format, text);
    if (model.async) {
      // JSON replies say the audio's length in seconds (the platform's reference, issue 32).
      return c.json({
        audioUrl: putMedia(c, ctx, audio.data, audio.type),
        contentType: audio.type,
        model: model.id,
        cost,
        duration: speechSeconds(text),
      });
    }
    return c.body(new Uint8Array(audio.data), 200, {
      'Content-Type': audio.type,
      [COST_HEADER]: String(cost),
    });
  });

  app.get('/api/tts/status', (c) => {
    const key = requireKey(c, ctx, { onlyApiKeyHeader: true });
    const id = c.req.query('runId');
    if (!id) throw badRequest('`runId` is required.', 'missing_required_parameter', 'runId');
    const job = jobs.get(id);
    if (!job) throw new SandboxError(404, `No speech job ${id}.`, { code: 'not_found' });
    if (job.key.account.id !== key.account.id)
      throw new SandboxError(403, `Speech job ${id} belongs to another account.`, { code: 'forbidden' });
    const phase = phaseAt(
      job.createdAt,
      ctx.now(),
      jobTiming(ctx, 'speechJobMs') / 2,
      jobTiming(ctx, 'speechJobMs') / 2,
    );
    if (!job.status && phase.state === 'done') {
      if (violatesPolicy(job.text) || FAIL_TRIGGER.test(job.text)) {
        job.status = 'error';
        job.code = violatesPolicy(job.text) ? 'CONTENT_POLICY_VIOLATION' : 'GENERATION_FAILED';
        job.error = violatesPolicy(job.text)
          ? 'The text was rejected by the content policy; the charge was refunded.'
          : 'Generation failed; the charge was refunded.';
        refund(job.key, job.cost);
      } else {
        job.status = 'completed';
        const audio = render(job.format, job.text);
        job.audioUrl = putMedia(c, ctx, audio.data, audio.type);
        job.contentType = audio.type;
      }
    }
    if (job.status === 'completed')
      return c.json({
        status: 'completed',
        audioUrl: job.audioUrl,
        contentType: job.contentType,
        model: job.model.id,
        duration: speechSeconds(job.text),
      });
    if (job.status === 'error') return c.json({ status: 'error', error: job.error, code: job.code });
    hintHeaders(c, ctx);
    return c.json({
      status: 'pending',
      runId: job.id,
      queuePosition: phase.state === 'queued' ? phase.position : 0,
    });
  });

  app.post('/api/v1/audio/speech', async (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const input = optionalString(body, 'input');
    if (!input?.trim()) throw badRequest('`input` is required.', 'missing_required_parameter', 'input');
    const model = findAudio(optionalString(body, 'model') ?? 'tts-mini', ['tts', 'music']);
    const music = model.type === 'music';
    // Music models ignore the voice (any string is accepted).
    if (!music) optionalString(body, 'voice', model.voices);
    const stream = optionalBoolean(body, 'stream') === true;
    if (violatesPolicy(input)) throw policyError(music ? 'music prompt' : 'input', false);
    const cost = roundUsd(
      model.pricing.unit === 'per_request' ? model.pricing.usd : (model.pricing.usd * input.length) / 1000,
    );
    charge(ctx, key, cost);
    const audio = music
      ? { data: makeMp3(6), type: 'audio/mpeg' }
      : render(optionalString(body, 'response_format') ?? 'mp3', input);
    const headers = { 'Content-Type': audio.type, [COST_HEADER]: String(cost) };
    // Only the fast speech model streams; the others return buffered audio whatever `stream` says.
    if (!stream || model.id !== 'tts-mini') return c.body(new Uint8Array(audio.data), 200, headers);
    return c.body(chunked(c, ctx, audio.data), 200, headers);
  });
}

function findAudio(id: string, kinds: AudioModel['type'][]): AudioModel {
  const model = AUDIO_MODELS.find((m) => m.id === id);
  if (!model)
    throw new SandboxError(404, `Audio model "${id}" not found; see /api/v1/audio-models.`, {
      code: 'model_not_found',
      param: 'model',
    });
  if (!kinds.includes(model.type))
    throw badRequest(
      `${id} is a ${model.type} model, not ${kinds.join(' or ')}.`,
      'invalid_parameter_value',
      'model',
    );
  return model;
}

function render(format: string, text: string): { data: Buffer; type: string } {
  const seconds = speechSeconds(text);
  if (format === 'mp3') return { data: makeMp3(seconds), type: 'audio/mpeg' };
  // wav, and opus/flac which the sandbox answers as WAV (the content type says so).
  return { data: makeWav(seconds, stableHash(text)), type: 'audio/wav' };
}

function chunked(c: Context<SandboxEnv>, ctx: SandboxContext, data: Buffer): ReadableStream<Uint8Array> {
  const size = 4096;
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= data.length) return controller.close();
      if (offset > 0) await sleep(ctx.timing.streamChunkDelayMs, c.req.raw.signal, ctx.closing);
      controller.enqueue(new Uint8Array(data.subarray(offset, offset + size)));
      offset += size;
    },
  });
}
