import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav } from '../../src/sandbox/media/audio.js';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 32 item 5: requests as the platform's published reference shows them, where the spec is
// silent or the client read it otherwise. Each case checks what the sandbox saw.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: { toolsets: 'all' },
    sandbox: {
      timing: {
        videoQueueMs: 0,
        videoRenderMs: 0,
        speechJobMs: 0,
        transcriptionJobMs: 0,
        pollHintMs: 10,
      },
    },
  });
});
afterAll(async () => {
  await h.close();
});

const sentTo = (method: string, path: string) =>
  h.sandbox.requests.filter((r) => r.method === method && r.path === path);
const ok = async (name: string, args: Record<string, unknown>) => {
  const result = await h.call(name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return out(result);
};

describe('provider discovery', () => {
  it('sends the model id as one percent-encoded segment', async () => {
    h.sandbox.clearRequests();
    const got = await ok('models_get', { id: 'openai/gpt-sandbox' });
    expect(got.providers.model).toBe('openai/gpt-sandbox');
    expect(sentTo('GET', '/api/models/openai%2Fgpt-sandbox/providers')).toHaveLength(1);
    expect(h.sandbox.requests.some((r) => r.path === '/api/models/openai/gpt-sandbox/providers')).toBe(false);
  });
});

describe('auth form of the polls and follow-ups', () => {
  const keyedByHeader = (method: string, path: string) => {
    const sent = sentTo(method, path);
    expect(sent.length, path).toBeGreaterThan(0);
    for (const r of sent) {
      expect(r.headers['x-api-key'], path).toBe(h.sandbox.demoKey);
      expect(r.headers.authorization, path).toBeUndefined();
    }
  };

  it('polls speech and transcription with x-api-key', async () => {
    h.sandbox.clearRequests();
    await ok('speech_generate', { text: 'A long enough text. '.repeat(12), model: 'tts-studio' });
    keyedByHeader('GET', '/api/tts/status');
    const wav = join(h.outputDir, 'poll.wav');
    await writeFile(wav, makeWav(2, 1));
    await ok('transcribe', { file: wav, model: 'scribe-async' });
    keyedByHeader('POST', '/api/transcribe/status');
  });

  it('reads video status, recent runs and extends with x-api-key', async () => {
    h.sandbox.clearRequests();
    const run = await ok('video_generate', { model: 'sandbox/video-pro', prompt: 'a lighthouse' });
    keyedByHeader('GET', '/api/video/status');
    await ok('video_recent', {});
    keyedByHeader('GET', '/api/generate-video/recover');
    await ok('video_extend', { run_id: run.run_id, index: 0 });
    keyedByHeader('POST', '/api/generate-video/extend');
  });
});

describe('what the polls carry', () => {
  it('passes the transcription ticket back, what the ticket left out taken from what was sent', async () => {
    const wav = join(h.outputDir, 'ticket.wav');
    await writeFile(wav, makeWav(2, 2));
    // A ticket as the reference may show it: the file's name and size and diarize left out.
    h.sandbox.faults.add({
      match: { method: 'POST', path: '/api/transcribe' },
      reshape: { drop: ['fileName', 'fileSize', 'diarize'] },
    });
    h.sandbox.clearRequests();
    await ok('transcribe', { file: wav, model: 'scribe-async', diarize: true });
    const ticket = sentTo('POST', '/api/transcribe')[0]!;
    expect(ticket.status).toBe(202);
    const poll = sentTo('POST', '/api/transcribe/status')[0]!.json;
    expect(poll).toEqual({
      runId: expect.any(String),
      cost: expect.any(Number),
      paymentSource: 'USD',
      isApiRequest: true,
      fileName: 'ticket.wav',
      fileSize: makeWav(2, 2).length,
      chargedDuration: 1,
      diarize: true,
    });
  });

  it("polls speech with the ticket's cost and payment source and isApiRequest", async () => {
    h.sandbox.clearRequests();
    await ok('speech_generate', { text: 'Another long text to queue. '.repeat(10), model: 'tts-studio' });
    const query = sentTo('GET', '/api/tts/status')[0]!.query;
    expect(query).toMatchObject({
      runId: expect.any(String),
      model: 'tts-studio',
      cost: expect.stringMatching(/^\d/),
      paymentSource: 'USD',
      isApiRequest: 'true',
    });
  });

  it('follows a speech ticket whose payment source is null, and sends none', async () => {
    h.sandbox.faults.add({
      match: { method: 'POST', path: '/api/tts' },
      reshape: { set: { paymentSource: null } },
    });
    h.sandbox.clearRequests();
    const got = await ok('speech_generate', {
      text: 'A third long text to queue. '.repeat(10),
      model: 'tts-studio',
    });
    expect(got.status).toBe('completed');
    const query = sentTo('GET', '/api/tts/status')[0]!.query;
    expect(query).not.toHaveProperty('paymentSource');
  });
});

describe('accountless web search', () => {
  it('asks for its quote on the data API route', async () => {
    const bare = await startHarness({ sharedSandbox: h.sandbox, credentials: [] });
    try {
      h.sandbox.clearRequests();
      const result = await bare.call('web_search', { query: 'quotes' });
      // The quote comes back as the x402 binding's payment request, its first text item (one line).
      expect(JSON.parse(textOf(result).split('\n')[0]!)['x402/error'].code).toBe(402);
      const asked = sentTo('POST', '/api/v1/data/web/search');
      expect(asked).toHaveLength(1);
      expect(asked[0]!.headers['x-x402']).toBe('true');
      expect(asked[0]!.status).toBe(402);
    } finally {
      await bare.close();
    }
  });
});

describe('eval output items', () => {
  it('sends no limit, which the route does not list', async () => {
    const run = await ok('eval_run', {
      rows: [{ input: 'hi', expected_output: 'hi' }],
      candidates: [{ model: 'openai/gpt-sandbox-mini' }],
      scorers: ['exact_match'],
    });
    await ok('evals_read', { operation: 'experiments.output_items', id: run.experiment_id });
    const asked = h.sandbox.requests.filter((r) => r.path.endsWith('/output_items'));
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const r of asked) expect(r.query, r.path).not.toHaveProperty('limit');
  });
});
