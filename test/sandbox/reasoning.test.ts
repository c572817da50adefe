import { describe, expect, it } from 'vitest';
import { post, readFrames, useSandbox } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested reply fields
type Json = Record<string, any>;

describe('sandbox reasoning controls', () => {
  const sandbox = useSandbox();
  const send = async (path: string, body: Json) => {
    const res = await post(sandbox(), path, body);
    return { res, body: (await res.json()) as Json };
  };
  const chat = (extra: Json) =>
    send('/api/v1/chat/completions', {
      model: 'anthropic/claude-sandbox',
      messages: [{ role: 'user', content: 'Plan a trip' }],
      ...extra,
    });

  it('turns reasoning on for an on-request model with reasoning_effort, longer as the effort grows', async () => {
    expect((await chat({})).body.choices[0].message.reasoning).toBeUndefined();
    const tokens: number[] = [];
    for (const effort of ['low', 'medium', 'high']) {
      const { body } = await chat({ reasoning_effort: effort });
      expect(body.choices[0].message.reasoning).toMatch(/^The user wrote "Plan a trip"\./);
      tokens.push(body.usage.completion_tokens_details.reasoning_tokens);
    }
    expect(tokens[0]).toBeLessThan(tokens[1]!);
    expect(tokens[1]).toBeLessThan(tokens[2]!);
    const nested = await chat({ reasoning: { effort: 'high' } });
    expect(nested.body.usage.completion_tokens_details.reasoning_tokens).toBe(tokens[2]);
  });

  it('rejects an unknown effort with 400 naming the field', async () => {
    const { res, body } = await chat({ reasoning_effort: 'extreme' });
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'reasoning_effort' });
  });

  it('leaves a model without reasoning silent whatever the effort', async () => {
    const { body } = await chat({ model: 'openai/gpt-sandbox', reasoning_effort: 'high' });
    expect(body.choices[0].message.reasoning).toBeUndefined();
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(0);
  });

  it('returns a reasoning item on the responses format, hidden by reasoning.exclude or :reasoning-exclude', async () => {
    const base = { model: 'anthropic/claude-sandbox', input: 'Plan a trip', reasoning: { effort: 'medium' } };
    const shown = await send('/api/v1/responses', base);
    expect(shown.body.output.map((o: Json) => o.type)).toEqual(['reasoning', 'message']);
    expect(shown.body.output[0].summary[0].text).toMatch(/^The user wrote/);
    for (const hidden of [
      { ...base, reasoning: { effort: 'medium', exclude: true } },
      { ...base, model: 'anthropic/claude-sandbox:reasoning-exclude' },
    ]) {
      const { body } = await send('/api/v1/responses', hidden);
      expect(body.output.map((o: Json) => o.type)).toEqual(['message']);
      expect(body.usage.output_tokens_details.reasoning_tokens).toBe(
        shown.body.usage.output_tokens_details.reasoning_tokens,
      );
    }
  });

  it('streams reasoning deltas separately from content on chat completions', async () => {
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/chat/completions', {
        model: 'anthropic/claude-sandbox',
        messages: [{ role: 'user', content: 'Plan a trip' }],
        reasoning_effort: 'low',
        stream: true,
      }),
    );
    const deltas = frames
      .filter((f) => f.data !== '[DONE]')
      .map((f) => JSON.parse(f.data).choices[0]?.delta ?? {});
    const reasoning = deltas.map((d: Json) => d.reasoning ?? '').join('');
    expect(reasoning).toBe('The user wrote "Plan a trip". Answer directly.');
    expect(deltas.every((d: Json) => !(d.reasoning && d.content))).toBe(true);
  });
});

describe('sandbox thinking on the messages format', () => {
  const sandbox = useSandbox();
  const send = async (max_tokens: number, thinking: unknown, extra: Json = {}) => {
    const res = await post(sandbox(), '/api/v1/messages', {
      model: 'anthropic/claude-sandbox',
      max_tokens,
      messages: [{ role: 'user', content: 'Think first' }],
      thinking,
      ...extra,
    });
    return { res, body: (await res.json()) as Json };
  };

  it('accepts the smallest valid budget: 1024 below max_tokens 1025', async () => {
    const { res, body } = await send(1025, { type: 'enabled', budget_tokens: 1024 });
    expect(res.status).toBe(200);
    expect(body.content[0]).toEqual({
      type: 'thinking',
      thinking: expect.stringMatching(/^The user wrote "Think first"/),
      signature: expect.stringMatching(/^sbx-sig-/),
    });
    expect(body.content[1].type).toBe('text');
  });

  it('rejects budget_tokens 1023, a budget equal to max_tokens, and a non-integer budget', async () => {
    const cases: [number, unknown, string][] = [
      [4096, { type: 'enabled', budget_tokens: 1023 }, '>= 1024'],
      [2048, { type: 'enabled', budget_tokens: 2048 }, 'less than max_tokens'],
      [4096, { type: 'enabled', budget_tokens: 1500.5 }, '>= 1024'],
      [4096, { type: 'enabled' }, '>= 1024'],
    ];
    for (const [max, thinking, text] of cases) {
      const { res, body } = await send(max, thinking);
      expect(res.status).toBe(400);
      expect(body).toEqual({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: expect.stringContaining(text),
          param: 'thinking.budget_tokens',
        },
      });
    }
  });

  it('rejects an unknown thinking type and accepts type disabled without reasoning', async () => {
    expect((await send(4096, { type: 'maybe' })).body.error.param).toBe('thinking');
    const off = await send(4096, { type: 'disabled' });
    expect(off.body.content.map((b: Json) => b.type)).toEqual(['text']);
  });

  it('validates the budget even for a model that drops thinking, and drops it when valid', async () => {
    expect(
      (await send(1000, { type: 'enabled', budget_tokens: 1024 }, { model: 'openai/gpt-sandbox' })).res
        .status,
    ).toBe(400);
    const dropped = await send(
      4096,
      { type: 'enabled', budget_tokens: 1024 },
      { model: 'openai/gpt-sandbox' },
    );
    expect(dropped.body.content.map((b: Json) => b.type)).toEqual(['text']);
  });
});
