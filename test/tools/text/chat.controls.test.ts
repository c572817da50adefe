import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Out, out, startHarness, textOf } from '../../helpers/harness.js';

/** chat's reasoning, stateful, caching and routing controls (spec 2 §4.1, §4.2, §8). */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const lastSent = (path: string) => [...h.sandbox.requests].reverse().find((r) => r.path === path);
const body = (path: string) => lastSent(path)?.json as Out;

describe('reasoning', () => {
  it('maps reasoning_effort to a thinking budget below max_tokens on the messages format', async () => {
    const result = await h.call('chat', {
      model: 'anthropic/claude-sandbox',
      format: 'messages',
      prompt: 'Why is the sky blue?',
      reasoning_effort: 'medium',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).reasoning).toContain('Why is the sky blue?');
    expect(body('/api/v1/messages')).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 4096 },
      max_tokens: 5120,
    });
  });

  it('refuses a thinking budget that is not below max_tokens, before sending', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('chat', {
      model: 'anthropic/claude-sandbox',
      format: 'messages',
      prompt: 'x',
      reasoning_effort: 'low',
      max_tokens: 1024,
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /invalid_input[\s\S]*budget of 1024 tokens[\s\S]*Raise max_tokens above 1024/,
    );
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('sends reasoning_effort and reasoning.exclude per format, and hidden reasoning stays out of the result', async () => {
    const chat = await h.call('chat', {
      model: 'sandbox/reasoner',
      prompt: 'think',
      reasoning_effort: 'high',
      hide_reasoning: true,
    });
    expect(out(chat).reasoning).toBeUndefined();
    expect(body('/api/v1/chat/completions')).toMatchObject({
      reasoning_effort: 'high',
      reasoning: { exclude: true },
    });
    const responses = await h.call('chat', {
      model: 'sandbox/reasoner',
      format: 'responses',
      prompt: 'think',
      reasoning_effort: 'low',
      hide_reasoning: true,
    });
    expect(out(responses).reasoning).toBeUndefined();
    expect(body('/api/v1/responses')).toMatchObject({ reasoning: { effort: 'low', exclude: true } });
    const messages = await h.call('chat', {
      model: 'sandbox/reasoner',
      format: 'messages',
      prompt: 'think',
      hide_reasoning: true,
    });
    expect(out(messages).reasoning).toBeUndefined();
    expect(body('/api/v1/messages').model).toBe('sandbox/reasoner:reasoning-exclude');
    const shown = await h.call('chat', { model: 'sandbox/reasoner', format: 'responses', prompt: 'think' });
    expect(out(shown).reasoning).toContain('think');
  });

  it('refuses tools and reasoning on the completions format', async () => {
    const result = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      format: 'completions',
      prompt: 'x',
      reasoning_effort: 'low',
    });
    expect(textOf(result)).toMatch(
      /^Error \(invalid_input\): The completions format takes text only, so reasoning_effort/,
    );
  });
});

describe('stateful responses', () => {
  it('holds a three-turn conversation through previous_response_id', async () => {
    const model = 'openai/gpt-sandbox';
    h.sandbox.clearRequests();
    const one = await h.call('chat', {
      model,
      format: 'responses',
      prompt: 'My name is Ada.',
      retention_days: 7,
    });
    const two = await h.call('chat', {
      model,
      format: 'responses',
      prompt: 'I live in Paris.',
      previous_response_id: out(one).response_id,
    });
    const three = await h.call('chat', {
      model,
      format: 'responses',
      stream: false,
      prompt: 'Where do I live?',
      previous_response_id: out(two).response_id,
    });
    expect(three.isError, textOf(three)).toBeFalsy();
    expect(out(one).response_id).toMatch(/^resp_/);
    expect(new Set([out(one).response_id, out(two).response_id, out(three).response_id]).size).toBe(3);
    expect(out(three).text).toContain('"My name is Ada."; "I live in Paris."');
    expect(body('/api/v1/responses')).toMatchObject({ previous_response_id: out(two).response_id });
    expect(h.sandbox.requests.find((r) => r.path === '/api/v1/responses')?.json).toMatchObject({
      retention_days: 7,
    });
  });

  it('reads a stored response back with job_status, and a store: false one is not found', async () => {
    const kept = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      format: 'responses',
      prompt: 'keep me',
    });
    const read = await h.call('job_status', { run_id: out(kept).response_id, kind: 'response' });
    expect(read.isError, textOf(read)).toBeFalsy();
    expect(out(read)).toMatchObject({ kind: 'response', status: 'completed', text: out(kept).text });
    expect(lastSent(`/api/v1/responses/${out(kept).response_id}`)?.method).toBe('GET');
    const gone = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      format: 'responses',
      prompt: 'forget me',
      store: false,
    });
    expect(body('/api/v1/responses')).toMatchObject({ store: false });
    const missing = await h.call('job_status', { run_id: out(gone).response_id, kind: 'response' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/not_found, HTTP 404/);
  });

  it('refuses stateful fields outside the responses format and an out-of-range retention', async () => {
    h.sandbox.clearRequests();
    const wrong = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      prompt: 'x',
      previous_response_id: 'resp_1',
    });
    expect(textOf(wrong)).toMatch(/previous_response_id works only with format "responses"/);
    const far = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      format: 'responses',
      prompt: 'x',
      retention_days: 400,
    });
    expect(far.isError).toBe(true);
    expect(textOf(far)).toMatch(/retention_days/);
    const unstored = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      format: 'responses',
      prompt: 'x',
      background: 5,
      store: false,
    });
    expect(textOf(unstored)).toMatch(/background response is read back when done/);
    expect(h.sandbox.requests).toHaveLength(0);
  });
});

describe('background responses', () => {
  let slow: Harness;
  beforeAll(async () => {
    slow = await startHarness({
      sandbox: { timing: { responseQueueMs: 300, responseRunMs: 600, pollHintMs: 100 } },
    });
  });
  afterAll(async () => {
    await slow.close();
  });

  it('submits, then waits with progress until the response is done', async () => {
    const progress: Progress[] = [];
    const result = await slow.call(
      'chat',
      { model: 'openai/gpt-sandbox', format: 'responses', prompt: 'a slow one', background: 30 },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result)).toMatchObject({
      finish_reason: 'stop',
      response_id: expect.stringMatching(/^resp_/),
    });
    expect(out(result).text).toContain('a slow one');
    expect(out(result).cost.amount).toBeGreaterThan(0);
    const submit = slow.sandbox.requests.find((r) => r.path === '/api/v1/responses');
    expect(submit?.json).toMatchObject({ background: true, stream: false });
    expect(out(result).request_id).toBe(submit?.id);
    const messages = progress.map((p) => p.message);
    expect(messages).toContain('in queue');
    expect(messages.some((m) => m?.startsWith('generating'))).toBe(true);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    const polls = slow.sandbox.requests.filter(
      (r) => r.path === `/api/v1/responses/${out(result).response_id}`,
    );
    expect(polls.length).toBeGreaterThan(1);
  });

  it('hands back the response id and the next call, which then waits for it', async () => {
    const first = await slow.call('chat', {
      model: 'openai/gpt-sandbox',
      format: 'responses',
      prompt: 'later please',
      background: 0,
    });
    const id = out(first).response_id;
    expect(out(first)).toMatchObject({
      text: '',
      finish_reason: 'queued',
      next: `job_status with run_id "${id}"`,
    });
    expect(textOf(first)).toContain('Next: call job_status');
    const done = await slow.call('job_status', { run_id: id });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(out(done)).toMatchObject({ kind: 'response', status: 'completed' });
    expect(out(done).text).toContain('later please');
  });
});

describe('caching and routing', () => {
  const system = 'You are a careful assistant. '.repeat(60);

  it('reports cache creation, then a cache read, on a repeated prompt', async () => {
    const ask = () =>
      h.call('chat', {
        model: 'openai/gpt-sandbox',
        system,
        prompt: 'Summarise.',
        caching: true,
        stream: false,
      });
    const first = await ask();
    const second = await ask();
    expect(body('/api/v1/chat/completions')).toMatchObject({ caching: true });
    expect(out(first).usage.cache_creation_tokens).toBeGreaterThan(0);
    expect(out(first).usage.cached_tokens).toBeUndefined();
    expect(out(second).usage.cached_tokens).toBe(out(first).usage.cache_creation_tokens);
    expect(textOf(second)).toMatch(/\d+ cached/);
  });

  it('puts cache_control markers on blocks with the beta header (messages), and as a cut index (responses)', async () => {
    const messages = [
      { role: 'user', content: system, cache_control: { type: 'ephemeral', ttl: '1h' } },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'Summarise.' },
    ];
    const first = await h.call('chat', { model: 'anthropic/claude-sandbox', format: 'messages', messages });
    const second = await h.call('chat', { model: 'anthropic/claude-sandbox', format: 'messages', messages });
    const sent = lastSent('/api/v1/messages');
    expect(sent?.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31,extended-cache-ttl-2025-04-11');
    expect((sent!.json as Out).messages[0].content).toEqual([
      { type: 'text', text: system, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
    expect(out(first).usage.cache_creation_tokens).toBeGreaterThan(0);
    expect(out(second).usage.cached_tokens).toBe(out(first).usage.cache_creation_tokens);
    // The messages format counts input without the cache; the result adds it back.
    expect(out(second).usage.input_tokens).toBe(out(first).usage.input_tokens);

    await h.call('chat', { model: 'openai/gpt-sandbox', format: 'responses', system: 'Be brief.', messages });
    expect(body('/api/v1/responses').prompt_caching).toEqual({
      enabled: true,
      cut_after_message_index: 1,
      ttl: '1h',
    });
  });

  it('sends X-Provider, X-Billing-Mode, moderation, the sticky flag and the route suffixes', async () => {
    const result = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      prompt: 'route me',
      provider: 'swift-inference',
      route: ['cheap', 'tools', 'paygo', 'moderation', 'sticky'],
      stream: false,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const sent = lastSent('/api/v1/chat/completions');
    expect(sent?.headers).toMatchObject({
      'x-provider': 'swift-inference',
      'x-billing-mode': 'paygo',
      moderation: 'true',
    });
    expect(sent?.json).toMatchObject({ model: 'openai/gpt-sandbox:cheap:tools', stickyprovider: true });
    expect(out(result).model).toBe('openai/gpt-sandbox');
  });

  it('adds each suffix once, and online for web_search', async () => {
    await h.call('chat', {
      model: 'openai/gpt-sandbox:fast',
      prompt: 'x',
      route: ['fast', 'online'],
      web_search: true,
    });
    expect(body('/api/v1/chat/completions').model).toBe('openai/gpt-sandbox:fast:online');
  });

  it('a sticky caching request fails with 503 instead of switching providers', async () => {
    const control = (down: boolean) =>
      fetch(`${h.sandbox.url}/__sandbox/providers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'sandbox-cloud', down }),
      });
    await control(true);
    try {
      const result = await h.call('chat', {
        model: 'openai/gpt-sandbox',
        prompt: 'x',
        caching: true,
        route: ['sticky'],
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/HTTP 503[\s\S]*fallback_blocked_for_cache_consistency/);
      const loose = await h.call('chat', { model: 'openai/gpt-sandbox', prompt: 'x', caching: true });
      expect(loose.isError, textOf(loose)).toBeFalsy();
    } finally {
      await control(false);
    }
  });

  it('shows providers (for X-Provider) in models_get', async () => {
    const result = await h.call('models_get', { id: 'openai/gpt-sandbox' });
    const slugs = (out(result).providers.data as Out[]).map((p) => p.provider_slug);
    expect(slugs).toEqual(['sandbox-cloud', 'swift-inference', 'budget-compute']);
  });
});
