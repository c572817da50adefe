/**
 * chat in each wire format (chat completions, messages, responses), streamed and not: the answer,
 * its progress while it streams, usage and cost read from where each format puts them.
 */
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from '../../helpers/harness.js';

interface ChatOut {
  text: string;
  reasoning?: string;
  finish_reason?: string;
  usage: { input_tokens: number; output_tokens: number };
  cost: { amount: number };
  request_id?: string;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('chat', () => {
  it('streams a chat-completions answer and relays the growing text as monotonic progress', async () => {
    const progress: Progress[] = [];
    h.sandbox.clearRequests();
    const result = await h.call(
      'chat',
      { model: 'openai/gpt-sandbox', prompt: 'Say hello' },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as unknown as ChatOut;
    expect(out.text).toContain('Say hello');
    expect(out.finish_reason).toBe('stop');
    expect(out.usage.input_tokens).toBeGreaterThan(0);
    expect(out.usage.output_tokens).toBeGreaterThan(0);
    expect(out.cost.amount).toBeGreaterThan(0);
    expect(out.request_id).toMatch(/^req_/);
    // An instant stream arrives in one or a few reads; the read that ends it is not reported
    // (the result carries the same text), so there may be no progress at all. Any that came is
    // a prefix of the answer.
    for (const p of progress) expect(out.text.startsWith(p.message!)).toBe(true);
    const sent = h.sandbox.requests.find((r) => r.path === '/api/v1/chat/completions');
    expect(sent?.method).toBe('POST');
    expect(sent?.headers.authorization).toBe('Bearer sk-orbit-sandbox-demo');
    expect(sent?.json).toMatchObject({
      model: 'openai/gpt-sandbox',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('reports the answer growing, in order, while a paced stream arrives', async () => {
    const paced = await startHarness({ sandbox: { timing: { streamChunkDelayMs: 25 } } });
    try {
      const progress: Progress[] = [];
      const result = await paced.call(
        'chat',
        { model: 'openai/gpt-sandbox', prompt: 'Say hello slowly' },
        { onprogress: (p) => progress.push(p) },
      );
      const out = result.structuredContent as unknown as ChatOut;
      expect(progress.length).toBeGreaterThan(2);
      for (let i = 1; i < progress.length; i++) {
        expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
        expect(progress[i]!.message!.length).toBeGreaterThan(progress[i - 1]!.message!.length);
      }
      for (const p of progress) expect(out.text.startsWith(p.message!)).toBe(true);
    } finally {
      await paced.close();
    }
  });

  it('returns the same answer without streaming', async () => {
    const result = await h.call('chat', { model: 'openai/gpt-sandbox', prompt: 'Say hello', stream: false });
    const out = result.structuredContent as unknown as ChatOut;
    expect(out.text).toContain('Say hello');
    expect(out.usage.output_tokens).toBeGreaterThan(0);
    // The whole reply is parsed once, at the boundary: its pricing extension must survive that.
    expect(out.cost.amount).toBeGreaterThan(0);
    expect(textOf(result)).toContain(out.text);
  });

  it('speaks the messages format with named events, system prompt and reasoning', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('chat', {
      model: 'sandbox/reasoner',
      format: 'messages',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Why is the sky blue?' }],
    });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as unknown as ChatOut;
    expect(out.text.length).toBeGreaterThan(0);
    expect(out.reasoning ?? '').not.toBe('');
    expect(out.finish_reason).toBe('end_turn');
    const sent = h.sandbox.requests.find((r) => r.path === '/api/v1/messages');
    expect(sent?.json).toMatchObject({ system: 'Be brief.', max_tokens: 1024, stream: true });
  });

  it('speaks the responses format and reads usage from the terminal event', async () => {
    const result = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      format: 'responses',
      prompt: 'Hi there',
    });
    const out = result.structuredContent as unknown as ChatOut;
    expect(result.isError).toBeFalsy();
    expect(out.text).toContain('Hi there');
    expect(out.finish_reason).toBe('stop');
    expect(out.usage.output_tokens).toBeGreaterThan(0);
  });

  it('adds the :online suffix for web_search and reports its cost', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      prompt: 'news',
      web_search: true,
      stream: false,
    });
    expect(result.isError).toBeFalsy();
    const sent = h.sandbox.requests.find((r) => r.path === '/api/v1/chat/completions');
    expect(sent?.json).toMatchObject({ model: 'openai/gpt-sandbox:online' });
  });

  it('refuses a call with neither prompt nor messages before sending anything', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('chat', { model: 'openai/gpt-sandbox' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid_input[\s\S]*Fix: Pass prompt/);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('names the argument when the model id is unknown upstream', async () => {
    const result = await h.call('chat', { model: 'nope/missing', prompt: 'hi' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/model_not_found[\s\S]*models_list[\s\S]*Request id: req_/);
  });
});
