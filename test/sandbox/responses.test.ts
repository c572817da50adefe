import { describe, expect, it } from 'vitest';
import { jsonFrames, post, readFrames, useSandbox } from './helpers.js';

describe('sandbox responses format', () => {
  const sandbox = useSandbox();
  const create = async (body: Record<string, unknown>) => {
    const res = await post(sandbox(), '/api/v1/responses', { model: 'openai/gpt-sandbox', ...body });
    return { res, body: await res.json() };
  };

  it('returns a completed response with output_text and usage', async () => {
    const { res, body } = await create({ input: 'Name a planet' });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'openai/gpt-sandbox',
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: body.output_text }] },
      ],
      usage: { input_tokens: 4, output_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
    expect(body.id).toMatch(/^resp_/);
    expect(body.output_text).toMatch(/^Sandbox reply to: "Name a planet"/);
  });

  it('streams events with increasing sequence numbers, ending in response.completed and [DONE]', async () => {
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/responses', { model: 'openai/gpt-sandbox', input: 'Hi', stream: true }),
    );
    expect(frames.at(-1)!.data).toBe('[DONE]');
    const events = jsonFrames(frames);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[0]!.type).toBe('response.created');
    const deltas = events.filter((e) => e.type === 'response.output_text.delta');
    expect(deltas.length).toBeGreaterThan(5);
    const last = events.at(-1)! as {
      type: string;
      response: { status: string; output_text: string; usage: object };
    };
    expect(last.type).toBe('response.completed');
    expect(last.response.status).toBe('completed');
    expect(last.response.usage).toMatchObject({ input_tokens: 1 });
    expect(deltas.map((d) => d.delta).join('')).toBe(last.response.output_text);
  });

  it('includes a reasoning summary for the reasoning model', async () => {
    const { body } = await create({ model: 'sandbox/reasoner', input: 'Why?' });
    expect(body.output.map((o: { type: string }) => o.type)).toEqual(['reasoning', 'message']);
  });

  it('continues from previous_response_id, counting the earlier turn as input', async () => {
    const first = await create({ input: 'First turn' });
    const second = await create({ input: 'Second turn', previous_response_id: first.body.id });
    expect(second.body.previous_response_id).toBe(first.body.id);
    expect(second.body.usage.input_tokens).toBeGreaterThan(first.body.usage.input_tokens + 2);
    const stored = await fetch(`${sandbox().url}/api/v1/responses/${first.body.id}`, {
      headers: { authorization: 'Bearer sk-orbit-sandbox-demo' },
    });
    expect((await stored.json()).id).toBe(first.body.id);
  });

  it('answers 404 for an unknown previous_response_id and 400 without input', async () => {
    expect((await create({ input: 'x', previous_response_id: 'resp_nope' })).res.status).toBe(404);
    const missing = await create({});
    expect(missing.res.status).toBe(400);
    expect(missing.body.error.code).toBe('missing_required_parameter');
  });

  it('ends a failing stream with response.failed carrying the error', async () => {
    sandbox().faults.add({ streamErrorAfterEvents: 4 });
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/responses', { model: 'openai/gpt-sandbox', input: 'Hi', stream: true }),
    );
    const events = jsonFrames(frames);
    expect(events.at(-1)).toMatchObject({
      type: 'response.failed',
      sequence_number: 4,
      response: { status: 'failed', error: { code: 'server_error' } },
    });
    expect(frames.at(-1)!.data).toBe('[DONE]');
  });
});
