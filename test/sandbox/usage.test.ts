import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE, SANDBOX_MANAGEMENT_TOKENS as T } from '../../src/sandbox/accounts/fixtures.js';
import { bearer, send } from './accounts-helpers.js';
import { useSandbox } from './helpers.js';

const KEY_USAGE = '/api/subscription/v1/usage';
const MANAGEMENT_USAGE = '/api/management/v1/subscription/usage';

// Wednesday 2025-03-12 15:30 UTC: the day resets at 03-13 00:00, the week on Monday 03-17.
const NOW = Date.UTC(2025, 2, 12, 15, 30);
const NEXT_DAY = Date.UTC(2025, 2, 13);
const NEXT_MONDAY = Date.UTC(2025, 2, 17);
const PERIOD_END = Date.UTC(2025, 3, 1);

const mint = async (sb: ReturnType<ReturnType<typeof useSandbox>>, user: string) =>
  (await send(sb, 'POST', '/__sandbox/management-tokens', { body: { user, scopes: ['usage:read'] } })).body
    .token;

describe('subscription usage by API key (spec 1 §2.6, §4.4)', () => {
  const sandbox = useSandbox({ now: () => NOW });

  it('counts operations against daily and monthly allowances, with epoch-ms resets', async () => {
    const res = await send(sandbox(), 'GET', KEY_USAGE, { headers: bearer(SANDBOX_PEOPLE.demo.apiKey) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      active: true,
      limits: { daily: 100, monthly: 2000 },
      enforceDailyLimit: true,
      daily: { used: 37, remaining: 63, percentUsed: 0.37, resetAt: NEXT_DAY },
      monthly: { used: 412, remaining: 1588, percentUsed: 0.206, resetAt: PERIOD_END },
      period: { currentPeriodEnd: '2025-04-01T00:00:00.000Z' },
      state: 'active',
      graceUntil: null,
    });
  });

  it('accepts the key in x-api-key too', async () => {
    const res = await send(sandbox(), 'GET', KEY_USAGE, {
      headers: { 'x-api-key': SANDBOX_PEOPLE.demo.apiKey },
    });
    expect(res.status).toBe(200);
  });

  it('reports a grace period with its end', async () => {
    const res = await send(sandbox(), 'GET', KEY_USAGE, { headers: bearer(SANDBOX_PEOPLE.member.apiKey) });
    expect(res.body).toMatchObject({
      active: true,
      state: 'grace',
      graceUntil: '2025-03-15T00:00:00.000Z',
      daily: { used: 100, remaining: 0, percentUsed: 1 },
    });
  });

  it('answers 200 for an account with no subscription, with no period end', async () => {
    const res = await send(sandbox(), 'GET', KEY_USAGE, {
      headers: { 'x-api-key': SANDBOX_PEOPLE.outsider.apiKey },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      active: false,
      state: 'inactive',
      limits: { daily: 0, monthly: 0 },
      period: {},
    });
  });

  it('keeps percentUsed within [0, 1] on this route', async () => {
    await send(sandbox(), 'PATCH', '/__sandbox/subscriptions/outsider', {
      body: { plan: 'active', daily: { used: 150 } },
    });
    const res = await send(sandbox(), 'GET', KEY_USAGE, { headers: bearer(SANDBOX_PEOPLE.outsider.apiKey) });
    expect(res.body.daily).toMatchObject({ used: 150, remaining: 0, percentUsed: 1 });
  });

  it('declares the legacy envelope for this route only, not its /api/subscription/v1 neighbours', async () => {
    await send(sandbox(), 'POST', '/__sandbox/faults', {
      body: { match: { path: '/api/subscription/v1/models' }, status: 503 },
    });
    const models = await send(sandbox(), 'GET', '/api/subscription/v1/models');
    expect(models.status).toBe(503);
    expect(models.body.error).toMatchObject({ type: 'service_unavailable' });
  });

  it('answers 401 missing_api_key in the legacy envelope without a key', async () => {
    const res = await send(sandbox(), 'GET', KEY_USAGE);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.any(String), status: 401, code: 'missing_api_key' });
  });
});

describe('subscription usage by management token (spec 1 §2.5, §4.3)', () => {
  const sandbox = useSandbox({ now: () => NOW });

  it('reports input-token and image quotas of the token owner', async () => {
    const res = await send(sandbox(), 'GET', MANAGEMENT_USAGE, { headers: bearer(T.usage) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      active: true,
      state: 'active',
      limits: { dailyInputTokens: 2_000_000, weeklyInputTokens: 10_000_000, dailyImages: 50 },
      dailyInputTokens: { used: 350_000, remaining: 1_650_000, percentUsed: 0.175, resetAt: NEXT_DAY },
      weeklyInputTokens: { used: 4_200_000, remaining: 5_800_000, percentUsed: 0.42, resetAt: NEXT_MONDAY },
      dailyImages: { used: 12, remaining: 38, percentUsed: 0.24, resetAt: NEXT_DAY },
      // No `degraded` while every lookup works (the platform's reference, issue 32).
      period: { currentPeriodEnd: '2025-04-01T00:00:00.000Z' },
    });
  });

  it('marks a failed lookup degraded with null counters, and lets percentUsed pass 1', async () => {
    const res = await send(sandbox(), 'GET', MANAGEMENT_USAGE, {
      headers: bearer(await mint(sandbox(), 'admin')),
    });
    expect(res.body.degraded).toBe(true);
    expect(res.body.weeklyInputTokens).toEqual({
      used: null,
      remaining: null,
      percentUsed: null,
      resetAt: NEXT_MONDAY,
    });
    expect(res.body.dailyImages).toEqual({ used: 55, remaining: 0, percentUsed: 1.1, resetAt: NEXT_DAY });
  });

  it('reports a token-based trial with usageUnits, tokenLimits and a tokens quota', async () => {
    const res = await send(sandbox(), 'GET', MANAGEMENT_USAGE, {
      headers: bearer(await mint(sandbox(), 'trial')),
    });
    expect(res.body).toMatchObject({
      active: true,
      limits: { dailyInputTokens: null, weeklyInputTokens: null, dailyImages: null },
      dailyInputTokens: null,
      weeklyInputTokens: null,
      dailyImages: null,
      usageUnits: 'tokens',
      tokenLimits: { total: 100_000 },
      tokens: { used: 12_500, remaining: 87_500, percentUsed: 0.125, resetAt: Date.UTC(2025, 2, 19) },
    });
  });

  it('answers 200 for an inactive subscription, quotas null', async () => {
    const res = await send(sandbox(), 'GET', MANAGEMENT_USAGE, {
      headers: bearer(await mint(sandbox(), 'outsider')),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      active: false,
      state: 'inactive',
      dailyImages: null,
      period: { currentPeriodEnd: null },
    });
    expect(res.body).not.toHaveProperty('usageUnits');
  });

  it('follows the control route when a lookup goes down', async () => {
    await send(sandbox(), 'PATCH', '/__sandbox/subscriptions/demo', {
      body: { unavailable: ['dailyImages'] },
    });
    const res = await send(sandbox(), 'GET', MANAGEMENT_USAGE, { headers: bearer(T.usage) });
    expect(res.body.degraded).toBe(true);
    expect(res.body.dailyImages.used).toBeNull();
    expect(res.body.dailyInputTokens.used).toBe(350_000);
  });

  it('ignores account selectors: the token owner is the only subject', async () => {
    const res = await send(sandbox(), 'GET', `${MANAGEMENT_USAGE}?account=acct_admin&refresh=1`, {
      headers: bearer(T.usage),
    });
    expect(res.body.state).toBe('active');
    expect(res.body.dailyInputTokens.used).toBe(350_000);
  });
});
