import { afterEach, describe, expect, it } from 'vitest';
import { post, useSandbox } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested reply fields
type Json = Record<string, any>;

describe('sandbox provider routing and billing headers', () => {
  const sandbox = useSandbox();
  afterEach(async () => {
    for (const provider of ['sandbox-cloud', 'swift-inference', 'budget-compute'])
      await post(sandbox(), '/__sandbox/providers', { provider, down: false });
  });
  const keyWith = (options: Json = {}) => {
    const key = sandbox().state.createKey({ balance: 5, ...options });
    return { key, auth: { authorization: `Bearer ${key}` } };
  };
  const chat = async (extra: Json, headers: Record<string, string>) => {
    const res = await post(
      sandbox(),
      '/api/v1/chat/completions',
      { model: 'openai/gpt-sandbox', messages: [{ role: 'user', content: 'Route me' }], ...extra },
      headers,
    );
    return { res, body: (await res.json()) as Json };
  };
  const costAt = (body: Json, factor: number) =>
    ((body.usage.prompt_tokens * 2.5 + body.usage.completion_tokens * 10) * factor) / 1e6;

  it('serves from the default provider and names it in X-Provider', async () => {
    const { res, body } = await chat({}, keyWith().auth);
    expect(res.headers.get('x-provider')).toBe('sandbox-cloud');
    expect(body.x_orbit_pricing.cost).toBeCloseTo(costAt(body, 1), 9);
  });

  it('pins a provider with the X-Provider header, billed at its price plus the 5% markup', async () => {
    const { auth } = keyWith();
    const { res, body } = await chat({}, { ...auth, 'X-Provider': 'swift-inference' });
    expect(res.headers.get('x-provider')).toBe('swift-inference');
    expect(body.x_orbit_pricing.cost).toBeCloseTo(costAt(body, 1.25 * 1.05), 8);
    const byName = await chat({}, { ...auth, 'X-Provider': 'Budget Compute' });
    expect(byName.res.headers.get('x-provider')).toBe('budget-compute');
  });

  it('refuses an unknown provider, and a pinned provider that cannot cache a caching request', async () => {
    const { auth } = keyWith();
    const unknown = await chat({}, { ...auth, 'X-Provider': 'nowhere' });
    expect(unknown.res.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'model_not_available', param: 'X-Provider' });
    const noCache = await chat({ caching: true }, { ...auth, 'X-Provider': 'budget-compute' });
    expect(noCache.body.error).toMatchObject({ code: 'model_not_available' });
  });

  it('orders providers by the routing suffixes', async () => {
    const { auth } = keyWith();
    const served = async (model: string) => (await chat({ model }, auth)).res.headers.get('x-provider');
    expect(await served('openai/gpt-sandbox:cheap')).toBe('budget-compute');
    expect(await served('openai/gpt-sandbox:floor')).toBe('budget-compute');
    expect(await served('openai/gpt-sandbox:fast')).toBe('swift-inference');
    expect(await served('openai/gpt-sandbox:latency')).toBe('swift-inference');
    expect(await served('openai/gpt-sandbox:throughput')).toBe('budget-compute');
    expect(await served('openai/gpt-sandbox:tools')).toBe('sandbox-cloud');
    const noTools = await chat({ model: 'meta/llama-sandbox-8b:tools' }, auth);
    expect(noTools.body.error).toMatchObject({ code: 'model_not_available', param: 'tools' });
  });

  it('lets a subscription cover an included model, unless X-Billing-Mode: paygo or X-Provider is sent', async () => {
    const { key, auth } = keyWith({ subscriber: true });
    const covered = await chat({}, auth);
    expect(covered.body.x_orbit_pricing).toMatchObject({ amount: 0, cost: 0, paymentSource: 'subscription' });
    expect(sandbox().state.balance(key)).toBe(5);
    const paygo = await chat({}, { ...auth, 'X-Billing-Mode': 'paygo' });
    expect(paygo.body.x_orbit_pricing).toMatchObject({ paymentSource: 'USD' });
    expect(paygo.body.x_orbit_pricing.cost).toBeGreaterThan(0);
    const pinned = await chat({}, { ...auth, 'X-Provider': 'sandbox-cloud' });
    expect(pinned.body.x_orbit_pricing.paymentSource).toBe('USD');
    expect(sandbox().state.balance(key)).toBeCloseTo(
      5 - paygo.body.x_orbit_pricing.cost - pinned.body.x_orbit_pricing.cost,
      9,
    );
    const paid = await chat({ model: 'anthropic/claude-sandbox' }, auth);
    expect(paid.body.x_orbit_pricing.paymentSource).toBe('USD');
    const bad = await chat({}, { ...auth, 'X-Billing-Mode': 'free' });
    expect(bad.body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'X-Billing-Mode' });
  });

  it('charges the moderation preflight, and refuses flagged input charging only the preflight', async () => {
    const { key, auth } = keyWith();
    const ok = await chat({}, { ...auth, moderation: 'true' });
    expect(ok.body.x_orbit_pricing.moderationCost).toBe(0.0002);
    expect(ok.body.x_orbit_pricing.cost).toBeCloseTo(costAt(ok.body, 1) + 0.0002, 9);
    expect(sandbox().state.balance(key)).toBeCloseTo(5 - ok.body.x_orbit_pricing.cost, 9);
    const before = sandbox().state.balance(key);
    const flagged = await chat(
      { messages: [{ role: 'user', content: 'something nsfw' }] },
      { ...auth, moderation: 'on' },
    );
    expect(flagged.res.status).toBe(400);
    expect(flagged.body.error.code).toBe('content_policy_violation');
    expect(sandbox().state.balance(key)).toBeCloseTo(before - 0.0002, 9);
    const unmoderated = await chat({ messages: [{ role: 'user', content: 'something nsfw' }] }, auth);
    expect(unmoderated.res.status).toBe(200);
    const empty = await chat({ messages: [{ role: 'user', content: '' }] }, { ...auth, moderation: 'true' });
    expect(empty.body.error.code).toBe('empty_moderation_input');
    const bad = await chat({}, { ...auth, moderation: 'maybe' });
    expect(bad.body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'moderation' });
    expect(
      (await chat({}, { ...auth, moderation: 'false' })).body.x_orbit_pricing.moderationCost,
    ).toBeUndefined();
  });

  it('runs the moderation preflight on video prompts too (spec 2 §4.6)', async () => {
    const { key, auth } = keyWith();
    const video = (prompt: string) =>
      post(
        sandbox(),
        '/api/generate-video',
        { model: 'sandbox/video-lite', prompt },
        { ...auth, moderation: 'true' },
      );
    const ok = (await (await video('a calm sea')).json()) as Json;
    expect(sandbox().state.balance(key)).toBeCloseTo(5 - ok.cost - 0.0002, 9);
    const before = sandbox().state.balance(key);
    const flagged = await video('an nsfw scene');
    expect(flagged.status).toBe(400);
    expect(await flagged.json()).toMatchObject({ status: 400, code: 'content_policy_violation' });
    expect(sandbox().state.balance(key)).toBeCloseTo(before - 0.0002, 9);
  });

  it('fails over from a provider that is down, unless sticky (503) or pinned (503)', async () => {
    const { auth } = keyWith();
    expect(
      (await post(sandbox(), '/__sandbox/providers', { provider: 'sandbox-cloud', down: true })).status,
    ).toBe(200);
    const moved = await chat({}, auth);
    expect(moved.res.headers.get('x-provider')).toBe('swift-inference');
    const sticky = await chat({ stickyprovider: true }, auth);
    expect(sticky.res.status).toBe(503);
    expect(sticky.body.error).toMatchObject({
      type: 'service_unavailable',
      code: 'fallback_blocked_for_cache_consistency',
    });
    const camel = await chat({ prompt_caching: { enabled: true, stickyProvider: true } }, auth);
    expect(camel.body.error.code).toBe('fallback_blocked_for_cache_consistency');
    const pinned = await chat({}, { ...auth, 'X-Provider': 'sandbox-cloud' });
    expect(pinned.res.status).toBe(503);
    expect(pinned.body.error.code).toBe('no_fallback_available');
    await post(sandbox(), '/__sandbox/providers', { provider: 'swift-inference', down: true });
    const none = await chat({ caching: true }, auth);
    expect(none.res.status).toBe(503);
    expect(none.body.error.code).toBe('all_fallbacks_failed');
    expect((await chat({}, auth)).res.headers.get('x-provider')).toBe('budget-compute');
  });

  it('lists providers with their status, and rejects an unknown provider on the control route', async () => {
    await post(sandbox(), '/__sandbox/providers', { provider: 'swift-inference', down: true });
    const res = await fetch(`${sandbox().url}/api/models/anthropic%2Fclaude-sandbox/providers`);
    const body = (await res.json()) as Json;
    expect(body.data.map((p: Json) => [p.provider_slug, p.status, p.supports_caching])).toEqual([
      ['sandbox-cloud', 'available', true],
      ['swift-inference', 'unavailable', true],
      ['budget-compute', 'available', false],
    ]);
    expect(body.data[1].pricing).toEqual({ prompt: 3.75, completion: 18.75, unit: 'per_million_tokens' });
    expect((await post(sandbox(), '/__sandbox/providers', { provider: 'nope', down: true })).status).toBe(
      400,
    );
  });
});
