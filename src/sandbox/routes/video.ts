import type { Context, Hono } from 'hono';
import { sandboxUuid } from '../accounts/fixtures.js';
import { charge, refund, requireKey } from '../billing.js';
import { jsonBody, optionalBoolean, optionalNumber, optionalString } from '../body.js';
import { VIDEO_MODELS, type VideoModel } from '../catalog/media-models.js';
import { badRequest, SandboxError } from '../errors.js';
import { putMedia } from '../media/files.js';
import { hintHeaders, jobTiming, phaseAt } from '../media/jobs.js';
import { perMinute } from '../media/limits.js';
import { makeMp4 } from '../media/mp4.js';
import { FAIL_TRIGGER, policyError, violatesPolicy } from '../media/policy.js';
import { acceptedReply, flatReply, nestedReply, type VideoJob } from '../media/video-replies.js';
import type { KeyRecord } from '../state.js';
import { moderate } from '../text/moderation.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { pad, roundUsd, stableHash } from '../util.js';

const INLINE_LIMIT = 4 * 1_048_576;
const EXTENDABLE = 'sandbox/video-pro';
/** The flat status shape is served for this model, the nested one for the others (GAPS.md: both exist). */
const FLAT_SHAPE_MODEL = 'sandbox/video-lite';

/**
 * Video generation (spec 2 §2.4, §3, §4.6; GAPS.md status routes). Jobs go IN_QUEUE -> IN_PROGRESS
 * -> COMPLETED (a real MP4 behind a temporary URL) or FAILED (refunded), on the sandbox clock.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  for (const prefix of ['/api/generate-video', '/api/video']) ctx.setEnvelope(prefix, 'legacy');
  const jobs = ctx.state.collection<VideoJob>('video.jobs');

  app.post('/api/generate-video', (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const model = VIDEO_MODELS.find((m) => m.id === body.model);
    if (typeof body.model !== 'string')
      throw badRequest('`model` is required.', 'missing_required_parameter', 'model');
    if (!model)
      throw new SandboxError(404, `Video model "${body.model}" not found; see /api/v1/video-models.`, {
        code: 'model_not_found',
      });
    const prompt = optionalString(body, 'prompt');
    if (!prompt?.trim()) throw badRequest('`prompt` is required.', 'missing_required_parameter', 'prompt');
    const duration = String(body.duration ?? model.durations[0]).replace(/s$/, '');
    if (!model.durations.includes(duration)) {
      throw badRequest(
        `\`duration\` must be one of ${model.durations.join(', ')} for ${model.id}.`,
        'invalid_parameter_value',
        'duration',
      );
    }
    const resolution =
      optionalString(body, 'resolution', model.resolutions) ?? model.resolutions[0] ?? '720p';
    const aspectRatio =
      optionalString(body, 'aspect_ratio', model.aspect_ratios) ?? model.aspect_ratios[0] ?? '16:9';
    optionalString(body, 'mode', model.modes);
    optionalNumber(body, 'seed', { integer: true, min: 0 });
    // Spec 2 §4.6 ranges: cfg_scale 0..1, frames_per_second 5..24 (a 400 naming the field).
    optionalNumber(body, 'cfg_scale', { min: 0, max: 1 });
    optionalNumber(body, 'frames_per_second', { min: 5, max: 24 });
    optionalString(body, 'negative_prompt');
    const audio = optionalBoolean(body, 'generateAudio');
    if (audio && !model.supports_audio)
      throw badRequest(`${model.id} cannot generate audio.`, 'invalid_parameter_value', 'generateAudio');
    for (const field of ['imageDataUrl', 'videoDataUrl']) {
      const value = body[field];
      if (typeof value === 'string' && Math.floor((value.length * 3) / 4) > INLINE_LIMIT) {
        throw new SandboxError(
          413,
          `\`${field}\` is larger than 4 MB; pass a URL (imageUrl or videoUrl) instead.`,
          {
            code: 'payload_too_large',
          },
        );
      }
    }
    // The opt-in moderation preflight (§4.6, as in §4.2) runs before the content policy and is paid.
    moderate(c, ctx, key, prompt);
    if (violatesPolicy(prompt)) throw policyError('prompt', true);
    const seconds = Number(duration);
    const conversation = optionalString(body, 'conversationUUID');
    const job = accept(c, key, model, prompt, seconds, resolution, aspectRatio, { conversation });
    return c.json(acceptedReply(job, key), 202);
  });

  const accept = (
    c: Context<SandboxEnv>,
    key: KeyRecord,
    model: VideoModel,
    prompt: string,
    seconds: number,
    resolution: string,
    aspectRatio: string,
    from: { extendedFrom?: string; conversation?: string } = {},
  ): VideoJob => {
    const cost = roundUsd((model.price_per_second[resolution] ?? 0.05) * seconds);
    charge(ctx, key, cost);
    const job: VideoJob = {
      id: `vid_${pad(c.get('seq'))}`,
      key,
      model,
      prompt,
      seconds,
      resolution,
      aspectRatio,
      cost,
      createdAt: ctx.now(),
      conversationUUID: from.conversation ?? sandboxUuid('conversation', c.get('seq')),
      ...(from.extendedFrom ? { extendedFrom: from.extendedFrom } : {}),
    };
    jobs.set(job.id, job);
    return job;
  };

  /** Moves a job to its terminal state once its time is up: a real MP4, or a failure and a refund. */
  const settle = (c: Context<SandboxEnv>, job: VideoJob) => {
    if (job.status) return;
    const phase = phaseAt(
      job.createdAt,
      ctx.now(),
      jobTiming(ctx, 'videoQueueMs'),
      jobTiming(ctx, 'videoRenderMs'),
    );
    if (phase.state !== 'done') return;
    job.completedAt = ctx.now();
    if (FAIL_TRIGGER.test(job.prompt)) {
      job.status = 'FAILED';
      job.error = 'Rendering failed on the provider; the charge was refunded.';
      refund(job.key, job.cost);
      return;
    }
    job.status = 'COMPLETED';
    job.videoUrl = putMedia(c, ctx, renderMp4(job), 'video/mp4');
  };

  const find = (c: Context<SandboxEnv>, key: KeyRecord, id: string | undefined): VideoJob => {
    if (!id)
      throw badRequest('`requestId` (or `runId`) is required.', 'missing_required_parameter', 'requestId');
    const job = jobs.get(id);
    if (!job) throw new SandboxError(404, `No video job ${id}.`, { code: 'not_found' });
    if (job.key.account.id !== key.account.id)
      throw new SandboxError(403, `Video job ${id} belongs to another account.`, { code: 'forbidden' });
    settle(c, job);
    if (!job.status) hintHeaders(c, ctx);
    return job;
  };

  // Status, recover and extend are documented with `x-api-key` (the platform's reference, issue 32):
  // a Bearer key is refused there, as a strict platform would; the submit takes either (spec 2 §4.6).
  app.get('/api/video/status', (c) => {
    const key = requireKey(c, ctx, { onlyApiKeyHeader: true });
    const job = find(c, key, c.req.query('requestId') ?? c.req.query('runId'));
    return c.json(
      job.model.id === FLAT_SHAPE_MODEL ? flatReply(job, phaseOf(job)) : nestedReply(job, phaseOf(job)),
    );
  });

  app.get('/api/generate-video/status', (c) => {
    const key = requireKey(c, ctx);
    const job = find(c, key, c.req.query('runId') ?? c.req.query('requestId'));
    const nested = nestedReply(job, phaseOf(job));
    const { requestId, ...data } = nested.data;
    return c.json({ runId: job.id, model: job.model.id, data: { ...data, request_id: requestId } });
  });

  app.get('/api/generate-video/recover', (c) => {
    const key = requireKey(c, ctx, { onlyApiKeyHeader: true });
    perMinute(ctx, '/api/generate-video/recover', key.account.id, 20);
    const runs = [...jobs.values()]
      .filter((job) => job.key.account.id === key.account.id)
      .reverse()
      .slice(0, 20)
      .map((job) => {
        settle(c, job);
        const { data } = nestedReply(job, phaseOf(job));
        return {
          runId: job.id,
          model: job.model.id,
          prompt: job.prompt,
          status: data.status,
          // Each run says when it was made and its conversation (the platform's reference, issue 32).
          createdAt: new Date(job.createdAt).toISOString(),
          conversationUUID: job.conversationUUID,
          ...(job.videoUrl ? { videoUrl: job.videoUrl } : {}),
          ...(job.error ? { error: job.error } : {}),
        };
      });
    return c.json({ success: true, runs });
  });

  app.post('/api/generate-video/extend', (c) => {
    const key = requireKey(c, ctx, { onlyApiKeyHeader: true });
    perMinute(ctx, '/api/generate-video/extend', key.account.id, 20);
    const body = jsonBody(c);
    const id = optionalString(body, 'runId') ?? optionalString(body, 'taskId');
    if (!id) throw badRequest('`runId` is required.', 'missing_required_parameter', 'runId');
    const index = optionalNumber(body, 'index', { integer: true, min: 0, max: 3 });
    if (index === undefined)
      throw badRequest('`index` (0..3) is required.', 'missing_required_parameter', 'index');
    for (const field of ['videoUrl', 'videoDataUrl', 'video']) {
      if (body[field] !== undefined)
        throw badRequest(
          'Extension takes no video input; it extends the run you name.',
          'invalid_parameter_value',
          field,
        );
    }
    const source = jobs.get(id);
    if (!source) throw new SandboxError(404, `No video job ${id}.`, { code: 'not_found' });
    if (source.key.account.id !== key.account.id)
      throw new SandboxError(403, `Video job ${id} belongs to another account.`, { code: 'forbidden' });
    if (source.model.id !== EXTENDABLE) {
      throw badRequest(
        `Only ${EXTENDABLE} runs can be extended here; extend other models through /api/generate-video with a source video.`,
        'invalid_parameter_value',
        'runId',
      );
    }
    settle(c, source);
    if (source.status !== 'COMPLETED')
      throw new SandboxError(409, `Video job ${id} is not completed, so it cannot be extended yet.`, {
        code: 'conflict',
      });
    const prompt = optionalString(body, 'prompt') ?? source.prompt;
    if (violatesPolicy(prompt)) throw policyError('prompt', true);
    const job = accept(c, key, source.model, prompt, 5, source.resolution, source.aspectRatio, {
      extendedFrom: source.id,
      conversation: source.conversationUUID,
    });
    return c.json({ ...acceptedReply(job, key), extendedFrom: source.id, index }, 202);
  });

  // Content proxy (spec 2 §4.6, documented for one family; the sandbox serves every model's runs so a
  // client's fallback works whichever model it used): the finished video's bytes.
  app.get('/api/generate-video/content', (c) => {
    const key = requireKey(c, ctx);
    const job = find(c, key, c.req.query('runId') ?? c.req.query('requestId') ?? c.req.query('taskId'));
    if (job.status !== 'COMPLETED') {
      const why =
        job.status === 'FAILED' ? `failed: ${job.error}` : 'is not finished yet; poll its status first';
      throw new SandboxError(409, `Video job ${job.id} ${why}`, { code: 'not_ready' });
    }
    return c.body(new Uint8Array(renderMp4(job)), 200, { 'Content-Type': 'video/mp4' });
  });

  function phaseOf(job: VideoJob) {
    return phaseAt(job.createdAt, ctx.now(), jobTiming(ctx, 'videoQueueMs'), jobTiming(ctx, 'videoRenderMs'));
  }
}

const renderMp4 = (job: VideoJob) =>
  makeMp4({ seconds: Math.min(job.seconds, 10), aspectRatio: job.aspectRatio, seed: stableHash(job.prompt) });
