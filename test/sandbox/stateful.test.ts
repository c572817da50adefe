import { describe, expect, it } from 'vitest';
import { DEMO_AUTH, jsonFrames, post, readFrames, useSandbox } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested reply fields
type Json = Record<string, any>;

const DAY = 86_400_000;
let now = 1_800_000_000_000;

describe('sandbox stateful responses', () => {
  const sandbox = useSandbox({
    now: () => now,
    timing: { responseQueueMs: 1_000, responseRunMs: 2_000, pollHintMs: 500 },
  });
  const create = async (body: Json, headers = DEMO_AUTH) => {
    const res = await post(sandbox(), '/api/v1/responses', { model: 'openai/gpt-sandbox', ...body }, headers);
    return { res, body: (await res.json()) as Json };
  };
  const read = async (id: string, headers: Record<string, string> = DEMO_AUTH) => {
    const res = await fetch(`${sandbox().url}/api/v1/responses/${id}`, { headers });
    return { res, body: (await res.json()) as Json };
  };

  it('carries a three-turn conversation through previous_response_id: each reply sees the earlier turns', async () => {
    const one = await create({ input: 'My name is Ada' });
    const two = await create({ input: 'I like orbits', previous_response_id: one.body.id });
    const three = await create({ input: 'What do you know?', previous_response_id: two.body.id });
    expect(two.body.output_text).toMatch(
      /^Sandbox reply to: "I like orbits"\. Earlier in this conversation you wrote: "My name is Ada"\./,
    );
    expect(three.body.output_text).toMatch(
      /^Sandbox reply to: "What do you know\?"\. Earlier in this conversation you wrote: "My name is Ada"; "I like orbits"\./,
    );
    expect(three.body.previous_response_id).toBe(two.body.id);
    // The stored turns (questions and answers) are input tokens of the next turn.
    expect(two.body.usage.input_tokens).toBeGreaterThan(
      one.body.usage.input_tokens + one.body.usage.output_tokens,
    );
    expect(three.body.usage.input_tokens).toBeGreaterThan(
      two.body.usage.input_tokens + two.body.usage.output_tokens,
    );
  });

  it('stores by default for 30 days, reads back by id, and answers 404 once expired', async () => {
    const made = await create({ input: 'Keep me' });
    expect(made.body).toMatchObject({ store: true, background: false });
    expect(made.body.expires_at).toBe(Math.floor((now + 30 * DAY) / 1000));
    expect((await read(made.body.id)).body).toEqual(made.body);
    now += 30 * DAY;
    const gone = await read(made.body.id);
    expect(gone.res.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'not_found', message: expect.stringContaining('expired') });
    const chained = await create({ input: 'Again', previous_response_id: made.body.id });
    expect(chained.res.status).toBe(404);
    expect(chained.body.error.param).toBe('previous_response_id');
  });

  it('honours retention_days and retentionDays (0..365), with 0 keeping nothing', async () => {
    const short = await create({ input: 'One day', retention_days: 1 });
    expect(short.body.expires_at).toBe(Math.floor((now + DAY) / 1000));
    const camel = await create({ input: 'Two days', retentionDays: 2 });
    expect(camel.body.expires_at).toBe(Math.floor((now + 2 * DAY) / 1000));
    now += DAY + 1;
    expect((await read(short.body.id)).res.status).toBe(404);
    expect((await read(camel.body.id)).res.status).toBe(200);
    const zero = await create({ input: 'Forget me', retention_days: 0 });
    expect(zero.body.expires_at).toBeNull();
    expect((await read(zero.body.id)).res.status).toBe(404);
    for (const bad of [366, -1, 1.5]) {
      const { res, body } = await create({ input: 'x', retention_days: bad });
      expect(res.status).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'retention_days' });
    }
  });

  it('falls back to the user default retention, then the team default', async () => {
    const key = sandbox().state.createKey({ balance: 5 });
    const auth = { authorization: `Bearer ${key}` };
    const setDefault = (days: number | null, level: string) =>
      post(sandbox(), '/__sandbox/responses-retention', { key, days, level });
    expect((await setDefault(7, 'team')).status).toBe(200);
    expect((await create({ input: 'x' }, auth)).body.expires_at).toBe(Math.floor((now + 7 * DAY) / 1000));
    await setDefault(3, 'user');
    expect((await create({ input: 'x' }, auth)).body.expires_at).toBe(Math.floor((now + 3 * DAY) / 1000));
    await setDefault(null, 'user');
    expect((await create({ input: 'x' }, auth)).body.expires_at).toBe(Math.floor((now + 7 * DAY) / 1000));
    expect((await create({ input: 'x', retention_days: 1 }, auth)).body.expires_at).toBe(
      Math.floor((now + DAY) / 1000),
    );
  });

  it('keeps nothing with store false', async () => {
    const made = await create({ input: 'Not stored', store: false });
    expect(made.body).toMatchObject({ store: false, expires_at: null, status: 'completed' });
    expect((await read(made.body.id)).res.status).toBe(404);
    expect((await create({ input: 'x', previous_response_id: made.body.id })).res.status).toBe(404);
  });

  it('hides a stored response from other keys', async () => {
    const made = await create({ input: 'Mine' });
    const other = { authorization: `Bearer ${sandbox().state.createKey()}` };
    expect((await read(made.body.id, other)).res.status).toBe(404);
    expect((await read('resp_unknown')).res.status).toBe(404);
  });

  it('runs a background response queued -> in_progress -> completed, with a poll hint while pending', async () => {
    const made = await create({ input: 'Slow work', background: true });
    expect(made.res.status).toBe(200);
    expect(made.body).toMatchObject({ status: 'queued', background: true, output: [], usage: null });
    expect(made.body.x_orbit_pricing).toBeUndefined();
    const queued = await read(made.body.id);
    expect(queued.body.status).toBe('queued');
    expect(queued.res.headers.get('retry-after-ms')).toBe('500');
    const early = await create({ input: 'next', previous_response_id: made.body.id });
    expect(early.res.status).toBe(400);
    expect(early.body.error.param).toBe('previous_response_id');
    now += 1_500;
    expect((await read(made.body.id)).body.status).toBe('in_progress');
    now += 2_000;
    const done = await read(made.body.id);
    expect(done.res.headers.get('retry-after-ms')).toBeNull();
    expect(done.body).toMatchObject({
      status: 'completed',
      output_text: expect.stringMatching(/^Sandbox reply to: "Slow work"/),
      usage: { input_tokens: expect.any(Number) },
      x_orbit_pricing: { currency: 'USD' },
    });
    expect((await create({ input: 'next', previous_response_id: made.body.id })).res.status).toBe(200);
  });

  it('cancels a queued background response with a refund; refuses to cancel a foreground one', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const auth = { authorization: `Bearer ${key}` };
    const made = await create({ input: 'Cancel me', background: true }, auth);
    expect(sandbox().state.balance(key)).toBeLessThan(1);
    const cancel = await post(sandbox(), `/api/v1/responses/${made.body.id}/cancel`, {}, auth);
    expect((await cancel.json()).status).toBe('cancelled');
    expect(sandbox().state.balance(key)).toBeCloseTo(1, 9);
    now += 10_000;
    expect((await read(made.body.id, auth)).body.status).toBe('cancelled');
    const foreground = await create({ input: 'Done already' }, auth);
    const refused = await post(sandbox(), `/api/v1/responses/${foreground.body.id}/cancel`, {}, auth);
    expect(refused.status).toBe(400);
  });

  it('refuses background work that would not be kept', async () => {
    for (const extra of [{ store: false }, { retention_days: 0 }]) {
      const { res, body } = await create({ input: 'x', background: true, ...extra });
      expect(res.status).toBe(400);
      expect(body.error.param).toBe('background');
    }
  });

  it('stores a streamed response, readable by the id of its events', async () => {
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/responses', {
        model: 'openai/gpt-sandbox',
        input: 'Stream me',
        stream: true,
      }),
    );
    const last = jsonFrames(frames).at(-1) as Json;
    expect(last.type).toBe('response.completed');
    expect((await read(last.response.id)).body).toEqual(last.response);
  });
});
