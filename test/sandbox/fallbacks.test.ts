import { afterEach, describe, expect, it } from 'vitest';
import { sniff } from '../../src/files/types.js';
import { SANDBOX_DEMO_KEY } from '../../src/sandbox/constants.js';
import { chatBody, DEMO_AUTH, jsonFrames, post, readFrames, useSandbox } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested reply fields
type Json = Record<string, any>;
let now = 1_800_000_000_000;

describe('sandbox routes switched off, for fallback tests', () => {
  const sandbox = useSandbox({ now: () => now, timing: { videoQueueMs: 1_000, videoRenderMs: 1_000 } });
  afterEach(() => {
    sandbox().faults.clear();
  });
  const get = (path: string, headers: Record<string, string> = DEMO_AUTH) =>
    fetch(`${sandbox().url}${path}`, { headers });
  const switchOff = async (method: string, path: string) => {
    const res = await post(sandbox(), '/__sandbox/faults', {
      status: 404,
      persist: true,
      match: { method, path },
    });
    return ((await res.json()) as { id: string }).id;
  };

  it('answers 404 on a persistent fault for as long as it stands, then the route works again', async () => {
    const id = await switchOff('GET', '/api/v1/images/models');
    for (let i = 0; i < 3; i++) {
      const res = await get('/api/v1/images/models');
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({
        error: { code: 'not_found', message: expect.stringContaining('switched off') },
      });
    }
    expect((await get('/api/v1/image-models')).status).toBe(200);
    const removed = await fetch(`${sandbox().url}/__sandbox/faults/${id}`, { method: 'DELETE' });
    expect(await removed.json()).toEqual({ removed: id });
    expect((await get('/api/v1/images/models')).status).toBe(200);
    expect((await fetch(`${sandbox().url}/__sandbox/faults/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('serves image generation on the compatible routes while the image API is off', async () => {
    await switchOff('POST', '/api/v1/images');
    expect((await post(sandbox(), '/api/v1/images', { model: 'pixel-lite', prompt: 'a cat' })).status).toBe(
      404,
    );
    for (const path of ['/api/v1/images/generations', '/v1/images/generations']) {
      const res = await post(sandbox(), path, { model: 'sandbox/image-pro', prompt: 'a cat', n: 1 });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Json;
      expect(body).toMatchObject({ created: expect.any(Number), cost: 0.04, paymentSource: 'USD' });
      expect(sniff(Buffer.from(body.data[0].b64_json, 'base64'))?.mimeType).toBe('image/png');
    }
    const catalog = (await (await get('/api/v1/image-models')).json()) as Json;
    expect(catalog.data.map((m: Json) => m.id)).toContain('sandbox/image-pro');
  });

  it('keeps the older video status route and the content proxy when /api/video/status is off', async () => {
    await switchOff('GET', '/api/video/status');
    const job = (await (
      await post(sandbox(), '/api/generate-video', { model: 'sandbox/video-pro', prompt: 'a comet' })
    ).json()) as Json;
    expect((await get(`/api/video/status?requestId=${job.runId}`)).status).toBe(404);
    const early = await get(`/api/generate-video/content?runId=${job.runId}`);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ status: 409, code: 'not_ready' });
    const pending = (await (
      await get(`/api/generate-video/status?runId=${job.runId}&model=sandbox/video-pro`)
    ).json()) as Json;
    expect(pending).toMatchObject({ runId: job.runId, data: { status: 'IN_QUEUE', request_id: job.runId } });
    now += 2_500;
    const done = (await (await get(`/api/generate-video/status?runId=${job.runId}`)).json()) as Json;
    expect(done.data).toMatchObject({ status: 'COMPLETED', output: { video: { url: expect.any(String) } } });
    const content = await get(`/api/generate-video/content?runId=${job.runId}`);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(sniff(bytes)?.mimeType).toBe('video/mp4');
    const viaUrl = Buffer.from(await (await fetch(done.data.output.video.url)).arrayBuffer());
    expect(bytes.equals(viaUrl)).toBe(true);
    const stranger = { authorization: `Bearer ${sandbox().state.createKey()}` };
    expect((await get(`/api/generate-video/content?runId=${job.runId}`, stranger)).status).toBe(403);
    expect((await get('/api/generate-video/content')).status).toBe(400);
  });

  it('answers the legacy text route while chat completions is off', async () => {
    await switchOff('POST', '/api/v1/chat/completions');
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody())).status).toBe(404);
    const res = await post(
      sandbox(),
      '/api/talk-to-gpt',
      { model: 'openai/gpt-sandbox', prompt: 'Hello' },
      { 'x-api-key': SANDBOX_DEMO_KEY },
    );
    expect(await res.text()).toMatch(/<orbit>\{"cost":/);
  });
});

describe('sandbox replies without usage (omitUsage fault)', () => {
  const sandbox = useSandbox();
  const omit = (path: string) => sandbox().faults.add({ omitUsage: true, match: { path } });

  it('streams chat with no usage chunk even when asked, keeping pricing tokens on the final chunk', async () => {
    omit('/api/v1/chat/completions');
    const chunks = jsonFrames(
      await readFrames(
        await post(
          sandbox(),
          '/api/v1/chat/completions',
          chatBody({ stream: true, stream_options: { include_usage: true } }),
        ),
      ),
    ) as Json[];
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
    const last = chunks.at(-1)!;
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.x_orbit_pricing).toMatchObject({ inputTokens: 5, outputTokens: expect.any(Number) });
    const normal = jsonFrames(
      await readFrames(
        await post(
          sandbox(),
          '/api/v1/chat/completions',
          chatBody({ stream: true, stream_options: { include_usage: true } }),
        ),
      ),
    ) as Json[];
    expect(normal.at(-1)!.usage.completion_tokens).toBe(last.x_orbit_pricing.outputTokens);
  });

  it('leaves usage out of a plain chat reply, a messages stream and a responses reply', async () => {
    omit('/api/v1/chat/completions');
    const plain = (await (await post(sandbox(), '/api/v1/chat/completions', chatBody())).json()) as Json;
    expect(plain.usage).toBeUndefined();
    expect(plain.x_orbit_pricing.inputTokens).toBe(5);
    omit('/api/v1/messages');
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/messages', {
        model: 'anthropic/claude-sandbox',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      }),
    );
    const events = frames.map((f) => JSON.parse(f.data) as Json);
    expect(events.some((e) => e.usage || e.message?.usage)).toBe(false);
    expect(events.find((e) => e.type === 'message_delta')!.x_orbit_pricing.outputTokens).toBeGreaterThan(0);
    omit('/api/v1/responses');
    const response = (await (
      await post(sandbox(), '/api/v1/responses', { model: 'openai/gpt-sandbox', input: 'Hi' })
    ).json()) as Json;
    expect(response.usage).toBeNull();
    expect(response.x_orbit_pricing.inputTokens).toBe(1);
  });
});
