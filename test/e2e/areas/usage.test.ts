import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createManagementToken,
  SANDBOX_PEOPLE as P,
  type Sandbox,
  startSandbox,
  SANDBOX_MANAGEMENT_TOKENS as T,
} from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { type HarnessOptions, out, resourceText, startHarness, textOf } from '../../helpers/harness.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

/** One tool call on a fresh server with these credentials, against the shared sandbox. */
async function usageWith(given: Parameters<typeof credentials>[0], options: HarnessOptions = {}) {
  const h = await startHarness({ ...options, credentials: credentials(given), sharedSandbox: sandbox });
  try {
    return await h.call('usage_get');
  } finally {
    await h.close();
  }
}
const tokenFor = (user: string) =>
  createManagementToken(sandbox.state, { user, scopes: ['usage:read'] }).secret;

describe('usage_get', () => {
  it('shows operations by API key and tokens and images by management token, as percentages and reset times', async () => {
    sandbox.clearRequests();
    const result = await usageWith({ key: P.demo.apiKey, token: T.all });
    expect(result.isError).toBeFalsy();
    const { quotas, state } = out(result);
    expect(state).toBe('active');
    expect(quotas.daily_operations).toMatchObject({
      unit: 'operations',
      used: 37,
      limit: 100,
      remaining: 63,
      percent_used: 37,
    });
    expect(quotas.monthly_operations).toMatchObject({ used: 412, limit: 2000, percent_used: 20.6 });
    expect(quotas.daily_input_tokens).toMatchObject({
      unit: 'input tokens',
      used: 350_000,
      limit: 2_000_000,
      percent_used: 17.5,
    });
    expect(quotas.weekly_input_tokens).toMatchObject({ used: 4_200_000, percent_used: 42 });
    expect(quotas.daily_images).toMatchObject({ unit: 'images', used: 12, limit: 50, percent_used: 24 });
    expect(quotas.daily_operations.resets_at).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
    expect(quotas.daily_operations.resets_in).toMatch(/^in \d+ (min|h)$/);
    expect(textOf(result)).toMatch(
      /Daily operations: 37 of 100 operations used \(37%\), 63 left, resets .* \(in \d+ (min|h)\)/,
    );
    const key = sandbox.requests.find((r) => r.path === '/api/subscription/v1/usage');
    const management = sandbox.requests.find((r) => r.path === '/api/management/v1/subscription/usage');
    expect(key?.headers.authorization).toBe(`Bearer ${P.demo.apiKey}`);
    expect(management?.headers.authorization).toBe(`Bearer ${T.all}`);
    expect(JSON.stringify(result)).not.toContain(T.all);
  });

  it('shows a quota whose lookup is down as unknown, never zero, and percentages past 100', async () => {
    const result = await usageWith({ key: P.admin.apiKey, token: tokenFor('admin') });
    const { quotas, degraded } = out(result);
    expect(degraded).toBe(true);
    expect(quotas.weekly_input_tokens).toMatchObject({
      used: null,
      remaining: null,
      percent_used: null,
      limit: 10_000_000,
    });
    expect(quotas.daily_images).toMatchObject({ used: 55, limit: 50, percent_used: 110 });
    expect(textOf(result)).toMatch(/Weekly input tokens: unknown \(lookup unavailable\)/);
    expect(textOf(result)).not.toMatch(/Weekly input tokens: 0/);
  });

  it('shows a token-based trial and a grace period', async () => {
    const trial = out(await usageWith({ key: P.trial.apiKey, token: tokenFor('trial') }));
    expect(trial.quotas.trial_tokens).toMatchObject({
      unit: 'tokens',
      used: 12_500,
      limit: 100_000,
      percent_used: 12.5,
    });
    expect(trial.quotas.daily_input_tokens).toBeUndefined();
    const grace = out(await usageWith({ key: P.member.apiKey }));
    expect(grace).toMatchObject({ state: 'grace', grace_until: expect.stringMatching(/Z$/) });
    expect(grace.quotas.daily_operations).toMatchObject({ used: 100, remaining: 0, percent_used: 100 });
  });

  it('shows the spend budget beside the platform figures', async () => {
    const result = await usageWith({ key: P.demo.apiKey }, { config: { maxSpendUsd: '2.5' } });
    expect(out(result).budget).toEqual({ limit_usd: 2.5, spent_usd: 0, reserved_usd: 0, left_usd: 2.5 });
    expect(textOf(result)).toContain('Spend budget: 0 of 2.5 USD spent, 2.5 USD left.');
  });

  it('says what a management token would add, and which scope a token lacks', async () => {
    const none = await usageWith({ key: P.demo.apiKey });
    expect(out(none).notes.join(' ')).toMatch(
      /management token with usage:read\. Create .*ORBIT_MANAGEMENT_TOKEN/,
    );
    const wrongScope = await usageWith({ key: P.demo.apiKey, token: T.keysRead });
    expect(wrongScope.isError).toBeFalsy();
    expect(out(wrongScope).quotas.daily_operations.used).toBe(37);
    expect(out(wrongScope).notes.join(' ')).toMatch(
      /never gain scopes: create a new one with the `usage:read` scope/,
    );
  });

  it('names the missing credential and how to provide it', async () => {
    const result = await usageWith({});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/missing_credential[\s\S]*ORBIT_API_KEY/);
  });

  it('says which credential to use when a management token is given as the API key, and the other way round', async () => {
    const tokenAsKey = await usageWith({ key: T.all });
    expect(tokenAsKey.isError).toBe(true);
    expect(textOf(tokenAsKey)).toMatch(/HTTP 401[\s\S]*inference API key, never a management token/);
    const keyAsToken = await usageWith({ token: P.demo.apiKey });
    expect(keyAsToken.isError).toBe(true);
    // The API-key route had no key; the management route refused the key given as a token.
    expect(textOf(keyAsToken)).toMatch(/missing_credential/);
    const both = await usageWith({ key: P.demo.apiKey, token: P.admin.apiKey });
    expect(out(both).notes.join(' ')).toMatch(/only a management token \(never an API key\)/);
  });
});

describe('orbit://usage', () => {
  it('is listed and shows what usage_get shows', async () => {
    const h = await startHarness({
      credentials: credentials({ key: P.demo.apiKey, token: T.usage }),
      sharedSandbox: sandbox,
      config: { maxSpendUsd: '1' },
    });
    try {
      const { resources } = await h.client.listResources();
      expect(resources.map((r) => r.uri)).toContain('orbit://usage');
      const read = await h.client.readResource({ uri: 'orbit://usage' });
      const body = JSON.parse(resourceText(read.contents[0]));
      expect(body.quotas.daily_operations).toMatchObject({ used: 37, percent_used: 37 });
      expect(body.quotas.daily_images).toMatchObject({ used: 12 });
      expect(body.budget).toEqual({ limit_usd: 1, spent_usd: 0, reserved_usd: 0, left_usd: 1 });
    } finally {
      await h.close();
    }
  });
});
