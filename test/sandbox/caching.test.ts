import { afterEach, describe, expect, it } from 'vitest';
import { post, useSandbox } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested reply fields
type Json = Record<string, any>;

const tokens = (text: string) => Math.ceil(text.length / 4);
let now = 1_800_000_000_000;

describe('sandbox prompt caching', () => {
  const sandbox = useSandbox({ now: () => now });
  afterEach(async () => {
    await post(sandbox(), '/__sandbox/providers', { provider: 'sandbox-cloud', down: false });
  });
  const fresh = () => ({ authorization: `Bearer ${sandbox().state.createKey({ balance: 5 })}` });
  const chat = async (extra: Json, headers: Record<string, string>) => {
    const res = await post(
      sandbox(),
      '/api/v1/chat/completions',
      { model: 'openai/gpt-sandbox', ...extra },
      headers,
    );
    return { res, body: (await res.json()) as Json };
  };
  const turns = [
    { role: 'system', content: 'You are a careful assistant who answers about orbital mechanics.' },
    { role: 'user', content: 'What is a Hohmann transfer?' },
  ];

  it('writes on the first caching request and reads on the repeat, at a tenth of the input price', async () => {
    const auth = fresh();
    const first = await chat({ messages: turns, caching: true }, auth);
    const prompt = first.body.usage.prompt_tokens;
    expect(first.body.usage).toMatchObject({
      cache_creation_input_tokens: prompt,
      cache_read_input_tokens: 0,
    });
    expect(first.body.x_orbit_pricing.cacheCost).toBeCloseTo((prompt * 2.5 * 1.25) / 1e6, 9);
    const second = await chat({ messages: turns, caching: true }, auth);
    expect(second.body.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: prompt,
      prompt_tokens_details: { cached_tokens: prompt },
    });
    expect(second.body.x_orbit_pricing.cacheCost).toBeCloseTo((prompt * 2.5 * 0.1) / 1e6, 9);
    expect(second.body.x_orbit_pricing.cost).toBeLessThan(first.body.x_orbit_pricing.cost);
    const other = await chat({ messages: turns, caching: true }, fresh());
    expect(other.body.usage.cache_read_input_tokens).toBe(0);
  });

  it('reads the cached prefix of a conversation that grew, and writes only the new part', async () => {
    const auth = fresh();
    const first = await chat({ messages: turns, model: 'openai/gpt-sandbox:cache' }, auth);
    const longer = [
      ...turns,
      { role: 'assistant', content: 'A two-burn orbit change.' },
      { role: 'user', content: 'And a bi-elliptic one?' },
    ];
    const next = await chat({ messages: longer, model: 'openai/gpt-sandbox:cached' }, auth);
    expect(next.body.usage.cache_read_input_tokens).toBe(first.body.usage.prompt_tokens);
    expect(next.body.usage.cache_creation_input_tokens).toBe(
      next.body.usage.prompt_tokens - first.body.usage.prompt_tokens,
    );
  });

  it('caches only up to prompt_caching.cut_after_message_index', async () => {
    const auth = fresh();
    const cut = { enabled: true, cut_after_message_index: 0 };
    const first = await chat({ messages: turns, prompt_caching: cut }, auth);
    expect(first.body.usage.cache_creation_input_tokens).toBe(tokens(turns[0]!.content));
    const changed = [turns[0], { role: 'user', content: 'Something else entirely' }];
    const second = await chat(
      { messages: changed, promptCaching: { enabled: true, cutAfterMessageIndex: 0 } },
      auth,
    );
    expect(second.body.usage.cache_read_input_tokens).toBe(tokens(turns[0]!.content));
    const bad = await chat(
      { messages: turns, prompt_caching: { enabled: true, cut_after_message_index: 2 } },
      auth,
    );
    expect(bad.res.status).toBe(400);
    expect(bad.body.error.param).toBe('prompt_caching.cut_after_message_index');
  });

  it('expires a 5m entry after five minutes, keeps a 1h entry, and refreshes on read', async () => {
    const auth = fresh();
    const body = (ttl: string) => ({ messages: turns, prompt_caching: { enabled: true, ttl } });
    await chat(body('5m'), auth);
    now += 4 * 60_000;
    expect((await chat(body('5m'), auth)).body.usage.cache_read_input_tokens).toBeGreaterThan(0);
    now += 4 * 60_000; // 8 minutes after the write, 4 after the refreshing read
    expect((await chat(body('5m'), auth)).body.usage.cache_read_input_tokens).toBeGreaterThan(0);
    now += 6 * 60_000;
    expect((await chat(body('5m'), auth)).body.usage.cache_read_input_tokens).toBe(0);
    const hour = fresh();
    const written = await chat(body('1h'), hour);
    expect(written.body.x_orbit_pricing.cacheCost).toBeCloseTo(
      (written.body.usage.prompt_tokens * 2.5 * 2) / 1e6,
      9,
    );
    now += 30 * 60_000;
    expect((await chat(body('1h'), hour)).body.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect((await chat(body('2h'), hour)).res.status).toBe(400);
  });

  it('caches the prefix up to an inline cache_control marker, and with a body-level cache_control', async () => {
    const auth = fresh();
    const system = 'Reference text that every question shares, kept in the cache.';
    const marked = [
      { role: 'system', content: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: 'First question' },
    ];
    const first = await chat({ messages: marked }, auth);
    expect(first.body.usage.cache_creation_input_tokens).toBe(tokens(system));
    const second = await chat({ messages: [marked[0], { role: 'user', content: 'Second question' }] }, auth);
    expect(second.body.usage.cache_read_input_tokens).toBe(tokens(system));
    const whole = await chat({ messages: turns, cache_control: { type: 'ephemeral' } }, fresh());
    expect(whole.body.usage.cache_creation_input_tokens).toBe(whole.body.usage.prompt_tokens);
    const badMarker = await chat(
      {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'forever' } }] },
        ],
      },
      auth,
    );
    expect(badMarker.res.status).toBe(400);
  });

  it('reports cache creation by TTL on the messages format, from markers and the beta headers', async () => {
    const auth = fresh();
    const body = {
      model: 'anthropic/claude-sandbox',
      max_tokens: 1024,
      system: [
        {
          type: 'text',
          text: 'A long shared system prompt for caching.',
          cache_control: { type: 'ephemeral', ttl: '1h' },
        },
      ],
      messages: [{ role: 'user', content: 'Hi' }],
    };
    const first = (await (await post(sandbox(), '/api/v1/messages', body, auth)).json()) as Json;
    const cached = tokens('A long shared system prompt for caching.');
    expect(first.usage).toMatchObject({
      cache_creation_input_tokens: cached,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: cached },
      input_tokens: first.usage.input_tokens,
    });
    expect(first.usage.input_tokens).toBe(tokens(`${body.system[0]!.text}\nHi`) - cached);
    const second = (await (await post(sandbox(), '/api/v1/messages', body, auth)).json()) as Json;
    expect(second.usage.cache_read_input_tokens).toBe(cached);
    const beta = { ...fresh(), 'anthropic-beta': 'prompt-caching-2024-07-31,extended-cache-ttl-2025-04-11' };
    const plain = { ...body, system: 'Plain system' };
    const viaHeader = (await (await post(sandbox(), '/api/v1/messages', plain, beta)).json()) as Json;
    expect(viaHeader.usage.cache_creation.ephemeral_1h_input_tokens).toBe(tokens('Plain system\nHi'));
  });

  it('keeps soft affinity: later caching requests go back to the provider that holds the cache', async () => {
    const auth = fresh();
    const pinned = await chat(
      { messages: turns, caching: true },
      { ...auth, 'X-Provider': 'swift-inference' },
    );
    expect(pinned.res.headers.get('x-provider')).toBe('swift-inference');
    const again = await chat({ messages: turns, caching: true }, auth);
    expect(again.res.headers.get('x-provider')).toBe('swift-inference');
    expect(again.body.usage.cache_read_input_tokens).toBe(again.body.usage.prompt_tokens);
    const plain = await chat({ messages: turns }, auth);
    expect(plain.res.headers.get('x-provider')).toBe('sandbox-cloud');
    expect(plain.body.usage.cache_read_input_tokens).toBeUndefined();
  });

  it('loses the cache when it fails over, which stickyprovider prevents with a 503', async () => {
    const auth = fresh();
    await chat({ messages: turns, caching: true }, auth);
    await post(sandbox(), '/__sandbox/providers', { provider: 'sandbox-cloud', down: true });
    const sticky = await chat({ messages: turns, caching: true, stickyProvider: true }, auth);
    expect(sticky.res.status).toBe(503);
    expect(sticky.body.error.code).toBe('fallback_blocked_for_cache_consistency');
    const moved = await chat({ messages: turns, caching: true }, auth);
    expect(moved.res.headers.get('x-provider')).toBe('swift-inference');
    expect(moved.body.usage.cache_read_input_tokens).toBe(0);
    const bad = await chat({ messages: turns, sticky_provider: 'yes' }, auth);
    expect(bad.res.status).toBe(400);
  });
});
