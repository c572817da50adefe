import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniff } from '../../src/files/types.js';
import { SANDBOX_DEMO_KEY, type Sandbox, startSandbox } from '../../src/sandbox/index.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested reply fields
type Reply = Record<string, any>;
let sb: Sandbox;
let now = 1_800_000_000_000;
beforeAll(async () => {
  sb = await startSandbox({ now: () => now, timing: { videoQueueMs: 1_000, videoRenderMs: 2_000 } });
});
afterAll(async () => {
  await sb.close();
});

const headers = { authorization: `Bearer ${SANDBOX_DEMO_KEY}`, 'content-type': 'application/json' };
const post = (path: string, body: unknown) =>
  fetch(`${sb.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
// The video status and recover routes take the key in `x-api-key` (issue 32).
const get = (path: string) => fetch(`${sb.url}${path}`, { headers: { 'x-api-key': SANDBOX_DEMO_KEY } });

describe('sandbox video jobs', () => {
  it('move IN_QUEUE -> IN_PROGRESS -> COMPLETED on the sandbox clock, in both status shapes', async () => {
    const nested = (await (
      await post('/api/generate-video', { model: 'sandbox/video-pro', prompt: 'p' })
    ).json()) as { runId: string };
    const flat = (await (
      await post('/api/generate-video', { model: 'sandbox/video-lite', prompt: 'p' })
    ).json()) as { runId: string };
    const at = async (id: string) =>
      (await get(`/api/video/status?requestId=${id}`)).json() as Promise<Reply>;
    expect((await at(nested.runId)).data).toMatchObject({ status: 'IN_QUEUE', queuePosition: 3 });
    expect(await at(flat.runId)).toMatchObject({ status: 'queued', progress: 0 });
    now += 2_000;
    expect((await at(nested.runId)).data.status).toBe('IN_PROGRESS');
    expect(await at(flat.runId)).toMatchObject({ status: 'processing', progress: 50 });
    now += 1_500;
    const done = await at(nested.runId);
    expect(done.data).toMatchObject({ status: 'COMPLETED', cost: 0.5 });
    expect(await at(flat.runId)).toMatchObject({
      status: 'completed',
      videoUrl: expect.stringContaining('/media/tmp/'),
    });
    const old = (await (
      await get(`/api/generate-video/status?runId=${nested.runId}&model=sandbox/video-pro`)
    ).json()) as Reply;
    expect(old.data.request_id).toBe(nested.runId);
    const video = await fetch(done.data.output.video.url);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect(sniff(Buffer.from(await video.arrayBuffer()))?.mimeType).toBe('video/mp4');
    // Temporary URLs expire after about an hour.
    now += 61 * 60_000;
    expect((await fetch(done.data.output.video.url)).status).toBe(404);
  });

  it('refunds a job that fails while rendering', async () => {
    const before = sb.state.balance(SANDBOX_DEMO_KEY);
    const job = (await (
      await post('/api/generate-video', { model: 'sandbox/video-lite', prompt: 'fail-render' })
    ).json()) as { runId: string; cost: number };
    expect(sb.state.balance(SANDBOX_DEMO_KEY)).toBeCloseTo(before - job.cost, 9);
    now += 5_000;
    const status = (await (await get(`/api/video/status?runId=${job.runId}`)).json()) as Record<
      string,
      unknown
    >;
    expect(status).toMatchObject({ status: 'failed', error: expect.stringContaining('refunded') });
    expect(sb.state.balance(SANDBOX_DEMO_KEY)).toBeCloseTo(before, 9);
  });
});

describe('sandbox image API errors', () => {
  it('uses the image envelope and its codes', async () => {
    const res = await post('/api/v1/images', { model: 'pixel-lite', prompt: 'x', stream: true });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: 'unsupported_stream', parameter: 'stream' },
      code: 'unsupported_stream',
    });
    const missing = await post('/api/v1/images', { prompt: 'x' });
    expect(await missing.json()).toMatchObject({ code: 'missing_model' });
    const form = await fetch(`${sb.url}/api/v1/images`, {
      method: 'POST',
      headers: { authorization: headers.authorization },
      body: new FormData(),
    });
    expect(await form.json()).toMatchObject({ code: 'invalid_content_type' });
  });
});

describe('sandbox auth forms of the polls and follow-ups (the platform reference, issue 32)', () => {
  it('refuses a Bearer key where the key goes in x-api-key', async () => {
    const routes = [
      ['GET', '/api/tts/status?runId=tts_x'],
      ['POST', '/api/transcribe/status'],
      ['GET', '/api/video/status?requestId=vid_x'],
      ['GET', '/api/generate-video/recover'],
      ['POST', '/api/generate-video/extend'],
    ] as const;
    for (const [method, path] of routes) {
      const send = (auth: Record<string, string>) =>
        fetch(`${sb.url}${path}`, {
          method,
          headers: { ...auth, 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
      const bearer = await send({ authorization: `Bearer ${SANDBOX_DEMO_KEY}` });
      expect(bearer.status, path).toBe(401);
      expect(((await bearer.json()) as Reply).error, path).toContain('x-api-key');
      expect((await send({ 'x-api-key': SANDBOX_DEMO_KEY })).status, path).not.toBe(401);
    }
  });
});

describe('sandbox reply fields the platform reference shows (issue 32)', () => {
  const keyed = { 'x-api-key': SANDBOX_DEMO_KEY, 'content-type': 'application/json' };
  const send = async (method: string, path: string, body?: unknown) =>
    (await (
      await fetch(`${sb.url}${path}`, {
        method,
        headers: keyed,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    ).json()) as Reply;

  it('says the duration of a JSON speech reply', async () => {
    const reply = await send('POST', '/api/tts', { text: 'Short and sweet.', model: 'tts-studio' });
    expect(reply).toMatchObject({ audioUrl: expect.any(String), duration: expect.any(Number) });
  });

  it("names each diarized word's speaker and type", async () => {
    const audioUrl = 'https://audio.example/talk.wav';
    const ticket = await send('POST', '/api/transcribe', { audioUrl, model: 'scribe-async', diarize: true });
    now += 5_000;
    const done = await send('POST', '/api/transcribe/status', { runId: ticket.runId });
    expect(done.status).toBe('completed');
    expect(done.words[0]).toMatchObject({ type: 'word', speaker_id: 'speaker_0' });
    expect(done.words.at(-1)).toMatchObject({ type: 'word', speaker_id: 'speaker_1' });
  });

  it('gives each recent run its time and conversation', async () => {
    const conversationUUID = '3f2a9c1e-0b7d-4c55-9e21-5d8f0a6b7c11';
    const job = await send('POST', '/api/generate-video', {
      model: 'sandbox/video-lite',
      prompt: 'a kite',
      conversationUUID,
    });
    const { runs } = await send('GET', '/api/generate-video/recover');
    expect(runs.find((r: Reply) => r.runId === job.runId)).toMatchObject({
      createdAt: new Date(now).toISOString(),
      conversationUUID,
    });
    expect(runs.every((r: Reply) => typeof r.conversationUUID === 'string')).toBe(true);
  });
});
