import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P, SANDBOX_MANAGEMENT_TOKENS as T } from '../../src/sandbox/index.js';
import { credentials } from '../helpers/accounts.js';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 25: the replies of write routes whose fields the spec lists without marking any required
// (an invitation, spec 1 §2.8) or does not show at all (an API key's creation, spec 1 §4.3) are
// read tolerantly: what the tool needs is what the operation is for, the rest may be missing.
process.env.ORBIT_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'orbit-write-replies-'));

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    credentials: credentials({ key: P.demo.apiKey, token: T.all, session: P.demo.session }),
    config: { toolsets: 'all' },
  });
});
afterAll(async () => {
  await h.close();
});

describe('write replies read tolerantly', () => {
  it('an invitation reply with only its id still answers whom it invited, as sent', async () => {
    const listed = await h.call('teams_read', { operation: 'list' });
    const team = out(listed).data[0].uuid as string;
    h.sandbox.faults.add({
      match: { path: `/api/teams/${team}/invitations` },
      reshape: { drop: ['invitation.email', 'invitation.role', 'invitation.status'] },
    });
    const result = await h.call('teams_write', {
      operation: 'invite',
      team,
      email: 'ana@example.com',
      role: 'admin',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).data.sent).toEqual({ email: 'ana@example.com', role: 'admin' });
    expect(out(result).data.invitation.id).toBeDefined();
  });

  it('a key creation reply without an id still saves the secret and says where', async () => {
    const before = new Set(h.sandbox.state.keysOf(P.demo.account).map((k) => k.key));
    h.sandbox.faults.add({ match: { path: '/api/management/v1/api-keys' }, reshape: { drop: ['id'] } });
    const result = await h.call('api_keys_write', { operation: 'create', name: 'no id' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const created = h.sandbox.state.keysOf(P.demo.account).find((k) => !before.has(k.key));
    expect(created).toBeDefined();
    expect(JSON.stringify(result)).not.toContain(created!.key);
    const data = out(result).data;
    expect(data.key).toMatchObject({ name: 'no id' });
    expect(data.key.id).toBeUndefined();
    // Named by the secret's fingerprint, the one thing left to tell it by.
    expect(data.secret_file).toMatch(/sha256-[0-9a-f]{12}\.key$/);
    expect(readFileSync(data.secret_file, 'utf8').trim()).toBe(created!.key);
  });
});
