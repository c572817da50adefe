import { describe, expect, it } from 'vitest';
import { chatBody, post, useSandbox } from './helpers.js';

// 23:59:00 UTC: the daily window resets in 60 seconds.
let clock = Date.UTC(2025, 0, 1, 23, 59, 0);

describe('sandbox balances and daily limits', () => {
  const sandbox = useSandbox({ now: () => clock });

  it('debits the exact price reported in x_orbit_pricing', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), {
      authorization: `Bearer ${key}`,
    });
    const body = await res.json();
    const cost = body.x_orbit_pricing.cost;
    expect(cost).toBeGreaterThan(0);
    expect(sandbox().state.balance(key)).toBeCloseTo(1 - cost, 9);
    expect(sandbox().state.spent(key)).toBeCloseTo(cost, 9);
  });

  it('answers 402 with requiredBalance when the balance cannot cover the price', async () => {
    const key = sandbox().state.createKey({ balance: 0 });
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), { 'x-api-key': key });
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body).toEqual({ error: 'Insufficient balance', requiredBalance: expect.any(Number), status: 402 });
    expect(body.requiredBalance).toBeGreaterThan(0);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('lets a topped-up key spend again', async () => {
    const key = sandbox().state.createKey({ balance: 0 });
    sandbox().state.setBalance(key, 5);
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), { 'x-api-key': key });
    expect(res.status).toBe(200);
  });

  it('answers 429 daily_rpd_limit_exceeded with Retry-After until 00:00 UTC', async () => {
    const key = sandbox().state.createKey({ dailyRequestLimit: 2 });
    const auth = { authorization: `Bearer ${key}` };
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody(), auth)).status).toBe(200);
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody(), auth)).status).toBe(200);
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), auth);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(await res.json()).toEqual({
      error: { message: expect.any(String), type: 'rate_limit_error', code: 'daily_rpd_limit_exceeded' },
    });
  });

  it('resets the daily request count at 00:00 UTC', async () => {
    const key = sandbox().state.createKey({ dailyRequestLimit: 1 });
    const auth = { authorization: `Bearer ${key}` };
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody(), auth)).status).toBe(200);
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody(), auth)).status).toBe(429);
    clock += 61_000;
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody(), auth)).status).toBe(200);
  });

  it('answers 429 daily_usd_limit_exceeded when a spend cap would be passed', async () => {
    const key = sandbox().state.createKey({ dailyUsdLimit: 0.000001 });
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), { 'x-api-key': key });
    expect(res.status).toBe(429);
    expect((await res.json()).error.code).toBe('daily_usd_limit_exceeded');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
