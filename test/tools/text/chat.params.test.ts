import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from '../../helpers/harness.js';

// Issue 25: chat controls of spec 2 §4.1/§4.2, each checked before sending where the spec gives a rule.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({});
});
afterAll(async () => {
  await h.close();
});

const last = (path: string) =>
  h.sandbox.requests.filter((r) => r.path === path).at(-1)?.json as Record<string, unknown>;
const chat = (args: Record<string, unknown>) =>
  h.call('chat', { model: 'anthropic/claude-sandbox', prompt: 'Hi', stream: false, ...args });

describe('chat controls', () => {
  it('temperature stops at 1 on the messages format, refused before sending', async () => {
    h.sandbox.clearRequests();
    const result = await chat({ format: 'messages', temperature: 1.5 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/messages format takes temperature 0\.\.1/);
    expect(h.sandbox.requests).toHaveLength(0);
    expect((await chat({ format: 'chat', temperature: 1.5 })).isError).toBeFalsy();
  });

  it('messages: stop_sequences, top_p, top_k, service_tier, exact budget_tokens, no parallel tools, cached system', async () => {
    const result = await chat({
      format: 'messages',
      system: 'Be brief.',
      stop: ['END'],
      top_p: 0.9,
      top_k: 40,
      service_tier: 'auto',
      thinking_budget: 2000,
      max_tokens: 3000,
      cache_system: '1h',
      parallel_tools: false,
      tools: [{ name: 'lookup', parameters: { type: 'object', properties: {} } }],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(last('/api/v1/messages')).toMatchObject({
      stop_sequences: ['END'],
      top_p: 0.9,
      top_k: 40,
      service_tier: 'auto',
      thinking: { type: 'enabled', budget_tokens: 2000 },
      max_tokens: 3000,
      disable_parallel_tool_use: true,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
    });
    // Spec 2 §4.1: an explicit marker needs the caching beta, a one-hour one the extended-TTL beta too.
    const beta = h.sandbox.requests.filter((r) => r.path === '/api/v1/messages').at(-1)?.headers[
      'anthropic-beta'
    ];
    expect(beta).toMatch(/prompt-caching/);
    expect(beta).toMatch(/extended-cache-ttl/);
  });

  it('chat: stop and top_p; messages-only controls refused elsewhere', async () => {
    const result = await chat({ format: 'chat', stop: ['END'], top_p: 0.5 });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(last('/api/v1/chat/completions')).toMatchObject({ stop: ['END'], top_p: 0.5 });
    const topK = await chat({ format: 'chat', top_k: 5 });
    expect(textOf(topK)).toMatch(/top_k works only with format "messages"/);
    const budget = await chat({ format: 'messages', thinking_budget: 4096, max_tokens: 4096 });
    expect(textOf(budget)).toMatch(/thinking_budget 4096 tokens, which must be below max_tokens/);
  });
});

describe('background responses read back through a guessed route', () => {
  it('names the guess when the platform has no GET /api/v1/responses/{id}', async () => {
    const id = h.sandbox.faults.add({
      match: { method: 'GET', path: '/api/v1/responses/*' },
      status: 404,
      persist: true,
    });
    try {
      const result = await h.call('chat', {
        model: 'openai/gpt-sandbox',
        prompt: 'Hi',
        format: 'responses',
        background: 5,
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /cannot be read back: the platform answered 404 to GET \/api\/v1\/responses\/\S+, a route spec 2 does not show/,
      );
      // The POST was accepted (and may be charged): the fix names a read, never a second chat (issue 32).
      expect(textOf(result)).toMatch(/do not call chat again/);
      expect(textOf(result)).not.toMatch(/without background/);
    } finally {
      h.sandbox.faults.remove(id);
    }
  });

  it('reads a response without status as done when it has output', async () => {
    h.sandbox.faults.add({
      match: { method: 'GET', path: '/api/v1/responses/*' },
      reshape: { drop: ['status'] },
    });
    const result = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      prompt: 'Hi',
      format: 'responses',
      background: 5,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(/Sandbox reply/);
  });
});
