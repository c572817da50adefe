import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav } from '../../../src/sandbox/media/audio.js';
import { makePng } from '../../../src/sandbox/media/png.js';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';

/**
 * Routes still in the spec that a newer route usually serves (spec 2 §4.2, §4.4, §4.4a, §4.6, §4.8;
 * GAPS.md): each is used when the newer one answers 404. And failed streams, where money is at stake
 * (spec 1 §7.2).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ sandbox: { timing: { videoQueueMs: 50, videoRenderMs: 150, pollHintMs: 20 } } });
});
afterAll(async () => {
  await h.close();
});

/** Makes `method path` answer 404 (the route is absent) for the duration of `run`. */
async function without<T>(routes: [string, string][], run: () => Promise<T>): Promise<T> {
  const ids = routes.map(([method, path]) =>
    h.sandbox.faults.add({ status: 404, persist: true, match: { method, path } }),
  );
  try {
    return await run();
  } finally {
    for (const id of ids) h.sandbox.faults.remove(id);
  }
}

const seen = (path: string) => h.sandbox.requests.filter((r) => r.path === path);

describe('text routes', () => {
  it('speaks the completions format, streamed and not', async () => {
    for (const stream of [true, false]) {
      h.sandbox.clearRequests();
      const result = await h.call('chat', {
        model: 'openai/gpt-sandbox',
        format: 'completions',
        system: 'Continue the text.',
        prompt: 'Once upon a time',
        max_tokens: 200,
        stream,
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(out(result).text).toContain('Once upon a time');
      expect(out(result).usage.output_tokens).toBeGreaterThan(0);
      expect(seen('/api/v1/completions')[0]?.json).toEqual({
        model: 'openai/gpt-sandbox',
        stream,
        prompt: 'Continue the text.\n\nOnce upon a time',
        max_tokens: 200,
      });
    }
  });

  it('answers through the legacy talk-to-gpt route when chat completions answers 404', async () => {
    h.sandbox.clearRequests();
    const result = await without([['POST', '/api/v1/chat/completions']], () =>
      h.call('chat', {
        model: 'openai/gpt-sandbox',
        messages: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi!' },
        ],
        prompt: 'Say something legacy',
      }),
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).text).toContain('Say something legacy');
    expect(out(result).text).not.toContain('<');
    expect(out(result).usage).toEqual({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
    });
    expect(out(result).cost.amount).toBeGreaterThan(0);
    expect(seen('/api/v1/chat/completions')).toHaveLength(1);
    expect(seen('/api/talk-to-gpt')[0]?.json).toEqual({
      model: 'openai/gpt-sandbox',
      prompt: 'Say something legacy',
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi!' },
      ],
    });
  });

  it('does not fall back when the request needs more than the legacy route carries', async () => {
    h.sandbox.clearRequests();
    const result = await without([['POST', '/api/v1/chat/completions']], () =>
      h.call('chat', { model: 'openai/gpt-sandbox', prompt: 'x', reasoning_effort: 'low' }),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /not_found, HTTP 404[\s\S]*legacy \/api\/talk-to-gpt route takes text only/,
    );
    expect(seen('/api/talk-to-gpt')).toHaveLength(0);
  });
});

describe('failed streams and money', () => {
  it('keeps the request id and says a charge may have been recorded when a started stream breaks', async () => {
    for (const fault of [{ cutStreamAfterEvents: 3 }, { streamErrorAfterEvents: 3 }]) {
      h.sandbox.clearRequests();
      h.sandbox.faults.add({ match: { path: '/api/v1/responses' }, ...fault });
      const result = await h.call('chat', {
        model: 'openai/gpt-sandbox',
        format: 'responses',
        prompt: 'a long story',
      });
      expect(result.isError).toBe(true);
      const id = seen('/api/v1/responses')[0]?.id;
      expect(textOf(result)).toMatch(
        /\(stream_(incomplete|error)[^)]*\)[\s\S]*a charge may have been recorded/,
      );
      expect(textOf(result)).toContain(
        `Fix: The platform accepted POST /api/v1/responses (HTTP 200, request id ${id}) before this failed: call usage_get to see what it did, and do not call chat again for this.`,
      );
      expect(textOf(result)).toContain(`Request id: ${id}`);
      expect(textOf(result)).toMatch(/response_id: resp_/);
    }
  });

  it('fills usage from the pricing object when the usage chunk is missing', async () => {
    for (const path of ['/api/v1/chat/completions', '/api/v1/messages']) {
      h.sandbox.faults.add({ match: { path }, omitUsage: true });
      const result = await h.call('chat', {
        model: 'openai/gpt-sandbox',
        format: path.endsWith('messages') ? 'messages' : 'chat',
        prompt: 'count me',
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      const reference = await h.call('chat', {
        model: 'openai/gpt-sandbox',
        format: path.endsWith('messages') ? 'messages' : 'chat',
        prompt: 'count me',
      });
      expect(out(result).usage).toEqual({
        input_tokens: out(reference).usage.input_tokens,
        output_tokens: out(reference).usage.output_tokens,
      });
    }
  });
});

describe('media routes', () => {
  it('transcribes through the common route when /api/transcribe answers 404 (multipart and URL)', async () => {
    const wav = join(h.outputDir, 'fallback.wav');
    await writeFile(wav, makeWav(3, 1));
    h.sandbox.clearRequests();
    const [file, url] = await without([['POST', '/api/transcribe']], async () => [
      await h.call('transcribe', { file: wav, model: 'whisper-sandbox', language: 'en' }),
      await h.call('transcribe', { url: 'https://example.com/talk.mp3', model: 'whisper-sandbox' }),
    ]);
    expect(file?.isError, textOf(file!)).toBeFalsy();
    expect(out(file!)).toMatchObject({ status: 'completed', language: 'en' });
    expect(out(file!).text).toContain('quick brown fox');
    expect(out(url!).status).toBe('completed');
    const [multipart, json] = seen('/api/v1/audio/transcriptions');
    expect(multipart?.body).toContain('name="file"; filename="fallback.wav"');
    expect(multipart?.body).toContain('whisper-sandbox');
    expect(json?.json).toEqual({ model: 'whisper-sandbox', file_url: 'https://example.com/talk.mp3' });
  });

  it('asks for a model when only the common transcription route answers', async () => {
    const result = await without([['POST', '/api/transcribe']], () =>
      h.call('transcribe', { url: 'https://example.com/talk.mp3' }),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid_input[\s\S]*needs a model[\s\S]*Fix: Pass model/);
  });

  it('uses the older image catalog and the compatible image routes when the image API answers 404', async () => {
    // A fresh server: the image catalog is cached per platform for a few minutes.
    const fresh = await startHarness({ sharedSandbox: h.sandbox });
    try {
      h.sandbox.clearRequests();
      const missing: [string, string][] = [
        ['GET', '/api/v1/images/models*'],
        ['POST', '/api/v1/images'],
        ['POST', '/api/v1/images/generations'],
      ];
      const ref = `data:image/png;base64,${makePng(16, 16, 7).toString('base64')}`;
      const result = await without(missing, () =>
        fresh.call('image_generate', {
          model: 'sandbox/image-edit',
          prompt: 'a red kite',
          input_references: [ref],
        }),
      );
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(out(result).images).toHaveLength(1);
      expect(seen('/api/v1/image-models')).toHaveLength(1);
      expect(seen('/api/v1/images/generations')).toHaveLength(1);
      expect(seen('/v1/images/generations')[0]?.json).toEqual({
        model: 'sandbox/image-edit',
        prompt: 'a red kite',
        imageDataUrls: [ref],
      });
    } finally {
      await fresh.close();
    }
  });

  it('follows a video through the older status route and the content proxy when the status route answers 404', async () => {
    h.sandbox.clearRequests();
    const result = await without([['GET', '/api/video/status']], () =>
      h.call('video_generate', { model: 'sandbox/video-pro', prompt: 'a tide pool', duration: '5' }),
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o.status).toBe('COMPLETED');
    expect((await readFile(o.path)).subarray(4, 8).toString()).toBe('ftyp');
    expect(seen('/api/video/status')).toHaveLength(1);
    const older = seen('/api/generate-video/status');
    expect(older.length).toBeGreaterThan(0);
    expect(older[0]?.query).toEqual({ runId: o.run_id, model: 'sandbox/video-pro' });
    expect(seen('/api/generate-video/content')[0]?.query).toEqual({ runId: o.run_id });
  });

  it('points a video submit that timed out to video_recent, which finds the run', async () => {
    const impatient = await startHarness({ sharedSandbox: h.sandbox, config: { timeoutMs: '1000' } });
    try {
      h.sandbox.faults.add({ match: { method: 'POST', path: '/api/generate-video' }, latencyMs: 2_500 });
      const result = await impatient.call('video_generate', {
        model: 'sandbox/video-pro',
        prompt: 'a slow harbour',
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Error \(timeout\)/);
      expect(textOf(result)).toMatch(
        /Fix: POST \/api\/generate-video may have run on the platform: call video_recent to see what it did, and do not call video_generate again for this\./,
      );
      expect(textOf(result)).not.toMatch(/Try again/);
      await new Promise((resolve) => setTimeout(resolve, 700));
      const recent = await impatient.call('video_recent', {});
      expect(out(recent).runs[0]).toMatchObject({ prompt: 'a slow harbour' });
    } finally {
      await impatient.close();
    }
  });
});
