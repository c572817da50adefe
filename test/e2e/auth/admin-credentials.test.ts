import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialStore } from '../../../src/auth/store.js';
import { StoredCredentials } from '../../../src/auth/stored.js';
import {
  SANDBOX_PEOPLE as P,
  type Sandbox,
  startSandbox,
  SANDBOX_MANAGEMENT_TOKENS as T,
} from '../../../src/sandbox/index.js';
import { out, startHarness, textOf } from '../../helpers/harness.js';

/**
 * The management token and session stored by `orbit-mcp login --management-token` / `--session`
 * (the credential file, per platform) are used by the tools like the stored API key, and the
 * environment's win over them.
 */
let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  dir = mkdtempSync(join(tmpdir(), 'orbit-admin-store-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function stored(explicit: { kind: 'management_token' | 'session'; value: string }[] = []) {
  const store = new CredentialStore(dir);
  const at = new Date().toISOString();
  store.set(sandbox.url, 'api_key', { value: P.demo.apiKey, obtained_at: at, via: 'cli' });
  store.set(sandbox.url, 'management_token', { value: T.usage, obtained_at: at, via: 'cli' });
  store.set(sandbox.url, 'session', { value: P.member.session, obtained_at: at, via: 'cli' });
  return new StoredCredentials({
    explicit: explicit.map((c) => ({ ...c, source: 'env' as const })),
    platform: sandbox.url,
    store,
    signIn: false,
  });
}

describe('stored management token and session', () => {
  it('are used by usage_get and teams_read', async () => {
    const h = await startHarness({
      credentials: stored(),
      sharedSandbox: sandbox,
      config: { toolsets: 'account,teams' },
    });
    try {
      sandbox.clearRequests();
      const usage = await h.call('usage_get');
      expect(out(usage).quotas.daily_input_tokens).toMatchObject({ used: 350_000 });
      const teams = await h.call('teams_read', { operation: 'list' });
      expect(out(teams).data).toEqual([expect.objectContaining({ role: 'member' })]);
      expect(sandbox.requests.find((r) => r.path === '/api/teams')?.headers.cookie).toBe(
        `orbit_session=${P.member.session}`,
      );
    } finally {
      await h.close();
    }
  });

  it('give way to the environment, and a refused stored session is discarded', async () => {
    const credentials = stored([{ kind: 'session', value: P.demo.session }]);
    const h = await startHarness({ credentials, sharedSandbox: sandbox, config: { toolsets: 'teams' } });
    try {
      const teams = await h.call('teams_read', { operation: 'list' });
      expect(out(teams).data).toHaveLength(2);
    } finally {
      await h.close();
    }
    const ended = await startHarness({
      credentials: stored(),
      sharedSandbox: sandbox,
      config: { toolsets: 'teams' },
    });
    try {
      // A stored session that has since ended on the platform.
      new CredentialStore(dir).set(sandbox.url, 'session', { value: 'sess-orbit-ended', via: 'cli' });
      const refused = await ended.call('teams_read', { operation: 'list' });
      expect(textOf(refused)).toMatch(/unauthorized, HTTP 401[\s\S]*ORBIT_SESSION/);
      expect(new CredentialStore(dir).get(sandbox.url, 'session')).toBeUndefined();
    } finally {
      await ended.close();
    }
  });
});
