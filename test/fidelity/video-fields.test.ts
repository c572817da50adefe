import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from '../helpers/harness.js';

// Issue 25 item 6: video_generate's typed model fields (spec 2 §4.6) under their wire names, the
// spec's ranges checked before sending, and the sandbox refusing them as the platform would.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ sandbox: { timing: { videoQueueMs: 0, videoRenderMs: 0, pollHintMs: 10 } } });
});
afterAll(async () => {
  await h.close();
});

const submitted = () =>
  h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/api/generate-video');
const video = (args: Record<string, unknown>) =>
  h.call('video_generate', {
    model: 'sandbox/video-pro',
    prompt: 'a kite',
    wait: false,
    ...args,
  });

describe('video_generate model fields', () => {
  it('sends the typed fields under their wire names, merged with options (typed wins)', async () => {
    h.sandbox.clearRequests();
    const result = await video({
      negative_prompt: 'blur',
      seed: 7,
      cfg_scale: 0.7,
      fps: 24,
      generate_audio: true,
      mode: 'text-to-video',
      options: { seed: 1, camera_fixed: true, style: 'anime' },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const [sent] = submitted();
    expect(sent?.json).toEqual({
      model: 'sandbox/video-pro',
      prompt: 'a kite',
      negative_prompt: 'blur',
      seed: 7,
      cfg_scale: 0.7,
      frames_per_second: 24,
      generateAudio: true,
      mode: 'text-to-video',
      camera_fixed: true,
      style: 'anime',
    });
    expect(sent?.status).toBe(202);
  });

  it.each([
    [{ cfg_scale: 1.5 }, /cfg_scale must be between 0 and 1/],
    [{ cfg_scale: -0.1 }, /cfg_scale must be between 0 and 1/],
    [{ fps: 30 }, /fps must be between 5 and 24/],
    [{ fps: 4 }, /fps must be between 5 and 24/],
    [{ options: { frames_per_second: 60 } }, /options\.frames_per_second must be between 5 and 24/],
    [{ options: { cfg_scale: 2 } }, /options\.cfg_scale must be between 0 and 1/],
    [{ options: { mode: 'sideways' } }, /options\.mode must be one of text-to-video/],
  ])('refuses %j before sending', async (args, message) => {
    h.sandbox.clearRequests();
    const result = await video(args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('a typed field in range wins over an out-of-range one in options', async () => {
    h.sandbox.clearRequests();
    const result = await video({ cfg_scale: 0.2, options: { cfg_scale: 5 } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(submitted()[0]?.json).toMatchObject({ cfg_scale: 0.2 });
  });

  it('other named arguments still cannot come in options', async () => {
    const result = await video({ options: { fps: 10 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/options\.fps duplicates a named argument/);
  });
});

describe('the sandbox refuses out-of-range video fields sent raw', () => {
  const raw = (fields: Record<string, unknown>) =>
    fetch(`${h.sandbox.url}/api/generate-video`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.sandbox.demoKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sandbox/video-pro', prompt: 'a kite', ...fields }),
    });

  it.each([
    ['frames_per_second', 25, /`frames_per_second` must be a number >= 5 and <= 24/],
    ['frames_per_second', 4, /`frames_per_second` must be a number >= 5 and <= 24/],
    ['cfg_scale', 1.2, /`cfg_scale` must be a number >= 0 and <= 1/],
    ['mode', 'sideways', /`mode` must be one of/],
  ])('%s: %j is a 400 in the legacy envelope', async (field, value, message) => {
    const res = await raw({ [field]: value });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; status: number; code: string };
    expect(body).toMatchObject({ status: 400, code: 'invalid_parameter_value' });
    expect(body.error).toMatch(message);
  });

  it('accepts the fields in range', async () => {
    const res = await raw({ frames_per_second: 5, cfg_scale: 0, negative_prompt: 'blur', seed: 3 });
    expect(res.status).toBe(202);
  });
});
