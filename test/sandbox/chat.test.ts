import { describe, expect, it } from 'vitest';
import { chatBody, jsonFrames, post, readFrames, useSandbox } from './helpers.js';

type Chunk = Record<string, unknown> & {
  choices: { delta: Record<string, string>; finish_reason: string | null }[];
};

describe('sandbox chat completions', () => {
  const sandbox = useSandbox();
  const chat = async (extra: Record<string, unknown> = {}) => {
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(extra));
    return { res, body: await res.json() };
  };
  const stream = async (extra: Record<string, unknown> = {}) => {
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody({ stream: true, ...extra }));
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const frames = await readFrames(res);
    return { frames, chunks: jsonFrames(frames) as Chunk[] };
  };

  it('returns a chat.completion with a deterministic reply, usage and pricing', async () => {
    const { res, body } = await chat();
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ object: 'chat.completion', model: 'openai/gpt-sandbox' });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.choices[0].message.content).toMatch(/^Sandbox reply to: "Tell me about orbits"\./);
    expect(body.choices[0].finish_reason).toBe('stop');
    const { prompt_tokens, completion_tokens, total_tokens } = body.usage;
    expect(prompt_tokens).toBe(Math.ceil('Tell me about orbits'.length / 4));
    expect(completion_tokens).toBe(Math.ceil(body.choices[0].message.content.length / 4));
    expect(total_tokens).toBe(prompt_tokens + completion_tokens);
    const expected = (prompt_tokens * 2.5 + completion_tokens * 10) / 1e6;
    expect(body.x_orbit_pricing).toEqual({
      amount: expect.closeTo(expected, 9),
      currency: 'USD',
      cost: expect.closeTo(expected, 9),
      paymentSource: 'USD',
      inputTokens: prompt_tokens,
      outputTokens: completion_tokens,
    });
    const again = await chat();
    expect(again.body.choices[0].message.content).toBe(body.choices[0].message.content);
  });

  it('streams many content deltas, a stop chunk carrying pricing, then [DONE]', async () => {
    const { frames, chunks } = await stream();
    expect(frames.at(-1)!.data).toBe('[DONE]');
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(content).toMatch(/^Sandbox reply to: "Tell me about orbits"/);
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThanOrEqual(10);
    const last = chunks.at(-1)!;
    expect(last.choices[0]!.finish_reason).toBe('stop');
    expect(last.x_orbit_pricing).toMatchObject({ currency: 'USD', paymentSource: 'USD' });
    expect(chunks.slice(0, -1).some((c) => 'x_orbit_pricing' in c)).toBe(false);
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
  });

  it('adds a usage chunk, carrying the pricing, only when stream_options.include_usage is true', async () => {
    const { chunks } = await stream({ stream_options: { include_usage: true } });
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 5, total_tokens: expect.any(Number) });
    expect(last.x_orbit_pricing).toBeDefined();
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-2)!.x_orbit_pricing).toBeUndefined();
  });

  it('streams reasoning deltas before content for the reasoning model', async () => {
    const { chunks } = await stream({ model: 'sandbox/reasoner' });
    const firstReasoning = chunks.findIndex((c) => c.choices[0]?.delta.reasoning);
    const firstContent = chunks.findIndex((c) => c.choices[0]?.delta.content);
    expect(firstReasoning).toBeGreaterThan(0);
    expect(firstReasoning).toBeLessThan(firstContent);
  });

  it('hides reasoning with :reasoning-exclude or reasoning.exclude but still counts its tokens', async () => {
    for (const extra of [
      { model: 'sandbox/reasoner:reasoning-exclude' },
      { model: 'sandbox/reasoner', reasoning: { exclude: true } },
    ]) {
      const { body } = await chat(extra);
      expect(body.choices[0].message.reasoning).toBeUndefined();
      expect(body.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    }
  });

  it('skips reasoning entirely with reasoning_effort none', async () => {
    const { body } = await chat({ model: 'sandbox/reasoner', reasoning_effort: 'none' });
    expect(body.choices[0].message.reasoning).toBeUndefined();
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(0);
  });

  it('thinks on request with :thinking for a model that thinks on request', async () => {
    expect(
      (await chat({ model: 'anthropic/claude-sandbox' })).body.choices[0].message.reasoning,
    ).toBeUndefined();
    expect(
      (await chat({ model: 'anthropic/claude-sandbox:thinking' })).body.choices[0].message.reasoning,
    ).toEqual(expect.any(String));
  });

  it('adds sources and the 0.006 USD search fee with :online', async () => {
    const plain = await chat();
    const online = await chat({ model: 'openai/gpt-sandbox:online' });
    expect(online.body.choices[0].message.content).toContain('\n\nSources:\n1. ');
    const tokenCost =
      (online.body.usage.prompt_tokens * 2.5 + online.body.usage.completion_tokens * 10) / 1e6;
    expect(online.body.x_orbit_pricing.cost).toBeCloseTo(tokenCost + 0.006, 9);
    expect(online.body.x_orbit_pricing.cost).toBeGreaterThan(plain.body.x_orbit_pricing.cost);
  });

  it('writes the prompt cache on the first caching call and reads it on the next', async () => {
    const body = { messages: [{ role: 'user', content: 'A long shared prefix for caching tests' }] };
    const first = await chat({ ...body, model: 'openai/gpt-sandbox:caching' });
    expect(first.body.usage.prompt_tokens_details.cached_tokens).toBe(0);
    expect(first.body.usage.cache_creation_input_tokens).toBe(first.body.usage.prompt_tokens);
    const second = await chat({ ...body, model: 'openai/gpt-sandbox', caching: true });
    expect(second.body.usage.prompt_tokens_details.cached_tokens).toBe(second.body.usage.prompt_tokens);
    expect(second.body.x_orbit_pricing.cacheCost).toBeGreaterThan(0);
  });

  it('rejects caching on a model no caching provider serves', async () => {
    const { res, body } = await chat({ model: 'meta/llama-sandbox-8b:cache' });
    expect(res.status).toBe(400);
    expect(body.error.code).toBe('model_not_available');
  });

  it('accepts the routing suffixes and prices :cheap below :fast', async () => {
    const cheap = await chat({ model: 'openai/gpt-sandbox:cheap' });
    const fast = await chat({ model: 'openai/gpt-sandbox:fast' });
    expect(cheap.res.status).toBe(200);
    expect(cheap.body.x_orbit_pricing.cost).toBeLessThan(fast.body.x_orbit_pricing.cost);
  });

  it('answers 400 for an unknown suffix, an unknown model, a missing model and empty messages', async () => {
    expect((await chat({ model: 'openai/gpt-sandbox:warp' })).body.error).toMatchObject({
      code: 'invalid_parameter_value',
      param: 'model',
    });
    expect((await chat({ model: 'nope/model' })).body.error).toMatchObject({ code: 'model_not_found' });
    expect((await chat({ model: undefined })).body.error).toMatchObject({
      code: 'missing_required_parameter',
      param: 'model',
    });
    const empty = await chat({ messages: [] });
    expect(empty.res.status).toBe(400);
    expect(empty.body.error.param).toBe('messages');
  });

  it('stops with finish_reason length when max_tokens is smaller than the reply', async () => {
    const { body } = await chat({ max_tokens: 5 });
    expect(body.choices[0].finish_reason).toBe('length');
    expect(body.choices[0].message.content).toHaveLength(20);
  });

  it('serves legacy completions with choices[].text, streamed or not', async () => {
    const res = await post(sandbox(), '/api/v1/completions', {
      model: 'openai/gpt-sandbox-mini',
      prompt: 'Once upon a time',
    });
    const body = await res.json();
    expect(body.object).toBe('text_completion');
    expect(body.choices[0].text).toMatch(/^Sandbox reply to: "Once upon a time"/);
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/completions', {
        model: 'openai/gpt-sandbox-mini',
        prompt: 'Once upon a time',
        stream: true,
      }),
    );
    expect(frames.at(-1)!.data).toBe('[DONE]');
    const text = jsonFrames(frames)
      .map((c) => (c.choices as { text: string }[])[0]!.text)
      .join('');
    expect(text).toBe(body.choices[0].text);
  });
});
