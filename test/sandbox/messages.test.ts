import { describe, expect, it } from 'vitest';
import { post, readFrames, useSandbox } from './helpers.js';

const base = {
  model: 'anthropic/claude-sandbox',
  max_tokens: 4096,
  messages: [{ role: 'user', content: 'Hi there' }],
};

describe('sandbox messages format', () => {
  const sandbox = useSandbox();
  const send = async (body: Record<string, unknown>, headers?: Record<string, string>) => {
    const res = await post(sandbox(), '/api/v1/messages', body, headers);
    return { res, body: await res.json() };
  };

  it('returns a message object with text content and messages-style usage', async () => {
    const { res, body } = await send(base);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'anthropic/claude-sandbox',
      stop_reason: 'end_turn',
      stop_sequence: null,
      content: [{ type: 'text', text: expect.stringMatching(/^Sandbox reply to: "Hi there"/) }],
      usage: {
        input_tokens: 2,
        output_tokens: expect.any(Number),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        service_tier: 'standard',
      },
    });
    expect(body.id).toMatch(/^msg_/);
  });

  it('streams named events in order, with text deltas and a message_delta carrying the stop reason', async () => {
    const res = await post(sandbox(), '/api/v1/messages', { ...base, stream: true });
    const frames = await readFrames(res);
    const names = frames.map((f) => f.event);
    expect(names[0]).toBe('message_start');
    expect(names.slice(1, 3)).toEqual(['content_block_start', 'content_block_delta']);
    expect(names.slice(-4)).toEqual([
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const frame of frames) expect(JSON.parse(frame.data).type).toBe(frame.event);
    const deltas = frames
      .filter((f) => f.event === 'content_block_delta')
      .map((f) => JSON.parse(f.data).delta);
    expect(deltas.every((d) => d.type === 'text_delta')).toBe(true);
    expect(deltas.map((d) => d.text).join('')).toMatch(/^Sandbox reply to: "Hi there"/);
    const messageDelta = JSON.parse(frames.find((f) => f.event === 'message_delta')!.data);
    expect(messageDelta.delta.stop_reason).toBe('end_turn');
    expect(messageDelta.usage.output_tokens).toBeGreaterThan(0);
  });

  it('streams thinking_delta blocks before text for the reasoning model', async () => {
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/messages', { ...base, model: 'sandbox/reasoner', stream: true }),
    );
    const starts = frames
      .filter((f) => f.event === 'content_block_start')
      .map((f) => JSON.parse(f.data).content_block.type);
    expect(starts).toEqual(['thinking', 'text']);
    const deltaTypes = new Set(
      frames.filter((f) => f.event === 'content_block_delta').map((f) => JSON.parse(f.data).delta.type),
    );
    expect(deltaTypes).toEqual(new Set(['thinking_delta', 'signature_delta', 'text_delta']));
  });

  it('honours a thinking budget on a thinking model and silently drops it on others', async () => {
    const thinking = { type: 'enabled', budget_tokens: 2048 };
    const claude = await send({ ...base, thinking });
    expect(claude.body.content.map((b: { type: string }) => b.type)).toEqual(['thinking', 'text']);
    const gpt = await send({ ...base, model: 'openai/gpt-sandbox', thinking });
    expect(gpt.res.status).toBe(200);
    expect(gpt.body.content.map((b: { type: string }) => b.type)).toEqual(['text']);
  });

  it('rejects a thinking budget under 1024 or not below max_tokens, in the messages envelope', async () => {
    for (const budget_tokens of [512, 4096]) {
      const { res, body } = await send({ ...base, thinking: { type: 'enabled', budget_tokens } });
      expect(res.status).toBe(400);
      expect(body).toEqual({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: expect.stringContaining('budget_tokens'),
          param: 'thinking.budget_tokens',
        },
      });
    }
  });

  it('requires model, max_tokens and messages', async () => {
    expect((await send({ ...base, model: undefined })).res.status).toBe(400);
    expect((await send({ ...base, max_tokens: undefined })).body.error.message).toContain('max_tokens');
    expect((await send({ ...base, messages: [{ role: 'system', content: 'x' }] })).res.status).toBe(400);
  });

  it('reports cache writes when the prompt-caching beta header is sent', async () => {
    const headers = {
      authorization: 'Bearer sk-orbit-sandbox-demo',
      'anthropic-beta': 'prompt-caching-2024-07-31',
    };
    const body = { ...base, system: 'A cached system prompt for this test' };
    const first = await send(body, headers);
    expect(first.body.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    const second = await send(body, headers);
    expect(second.body.usage.cache_read_input_tokens).toBe(first.body.usage.cache_creation_input_tokens);
  });

  it('counts input tokens with count_tokens', async () => {
    const res = await post(sandbox(), '/api/v1/messages/count_tokens', {
      model: base.model,
      system: 'Be brief',
      messages: base.messages,
    });
    expect(await res.json()).toEqual({ input_tokens: Math.ceil('Be brief\nHi there'.length / 4) });
  });

  it('ends a failing stream with a named error event', async () => {
    sandbox().faults.add({ streamErrorAfterEvents: 3, status: 529, message: 'overloaded' });
    const frames = await readFrames(await post(sandbox(), '/api/v1/messages', { ...base, stream: true }));
    expect(frames).toHaveLength(4);
    expect(frames[3]!.event).toBe('error');
    expect(JSON.parse(frames[3]!.data)).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'overloaded' },
    });
  });
});
