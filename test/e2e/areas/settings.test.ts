import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PEOPLE as P,
  SANDBOX_TEAMS,
  type Sandbox,
  startSandbox,
} from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { out, startHarness, textOf } from '../../helpers/harness.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

async function call(handle: keyof typeof P | undefined, tool: string, args: Record<string, unknown>) {
  const h = await startHarness({
    credentials: credentials({ session: handle ? P[handle].session : undefined, key: P.demo.apiKey }),
    sharedSandbox: sandbox,
  });
  try {
    return await h.call(tool, args);
  } finally {
    await h.close();
  }
}
const sent = (method: string, path: string) =>
  sandbox.requests.filter((r) => r.method === method && r.path === path);

describe('settings_read and settings_write', () => {
  it('sets, reads and clears the responses retention', async () => {
    sandbox.clearRequests();
    const set = await call('demo', 'settings_write', { operation: 'retention', retention_days: 30 });
    expect(out(set)).toEqual({ operation: 'retention', data: { retention_days: 30 } });
    expect(sent('POST', '/api/user/responses-retention')[0]?.json).toEqual({ responsesRetentionDays: 30 });
    expect(out(await call('demo', 'settings_read', { operation: 'retention' })).data).toEqual({
      retention_days: 30,
    });
    await call('demo', 'settings_write', { operation: 'retention', retention_days: null });
    expect(out(await call('demo', 'settings_read', { operation: 'retention' })).data).toEqual({
      retention_days: null,
    });
    expect(sent('GET', '/api/user/responses-retention')[0]?.headers.cookie).toBe(
      `orbit_session=${P.demo.session}`,
    );
  });

  it('checks the retention range before sending', async () => {
    sandbox.clearRequests();
    for (const retention_days of [366, -1, 1.5]) {
      const result = await call('demo', 'settings_write', { operation: 'retention', retention_days });
      expect(textOf(result)).toMatch(
        /invalid_input\): `retention_days` must be a whole number from 0 to 365/,
      );
    }
    const missing = await call('demo', 'settings_write', { operation: 'retention' });
    expect(textOf(missing)).toMatch(/needs `retention_days`/);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('reads the referral code and link, the same on every call', async () => {
    const first = out(await call('member', 'settings_read', { operation: 'referral_link' })).data;
    expect(first).toEqual({ code: expect.any(String), url: expect.stringContaining(first.code) });
    expect(out(await call('member', 'settings_read', { operation: 'referral_link' })).data).toEqual(first);
  });

  it('sets the default team by name or id, and clears it for personal billing', async () => {
    sandbox.clearRequests();
    const byName = await call('demo', 'settings_write', { operation: 'default_team', team: 'Research Lab' });
    expect(out(byName).data).toEqual({ default_team_uuid: SANDBOX_TEAMS.lab.uuid });
    expect(sent('PATCH', '/api/user/default-team')[0]?.json).toEqual({ team_uuid: SANDBOX_TEAMS.lab.uuid });
    const byId = await call('demo', 'settings_write', { operation: 'default_team', team: '1' });
    expect(out(byId).data).toEqual({ default_team_uuid: SANDBOX_TEAMS.main.uuid });
    expect(sent('PATCH', '/api/user/default-team')[1]?.json).toEqual({ team_id: 1 });
    const cleared = await call('demo', 'settings_write', { operation: 'default_team', team: null });
    expect(out(cleared).data).toEqual({ default_team_uuid: null });
    expect(sent('PATCH', '/api/user/default-team')[2]?.json).toEqual({ team_uuid: null });
  });

  it('passes on a team the person is not in (403), and needs a team or null', async () => {
    const other = await call('outsider', 'settings_write', {
      operation: 'default_team',
      team: SANDBOX_TEAMS.main.uuid,
    });
    expect(textOf(other)).toMatch(/forbidden, HTTP 403\): You can only bill to a team you are a member of/);
    const missing = await call('demo', 'settings_write', { operation: 'default_team' });
    expect(textOf(missing)).toMatch(/needs `team`[\s\S]*null for personal billing/);
  });

  it('names the session it lacks even when an API key is present', async () => {
    const result = await call(undefined, 'settings_read', { operation: 'retention' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/missing_credential[\s\S]*ORBIT_SESSION/);
  });
});
