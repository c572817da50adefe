/**
 * Sign-in and sign-out over stdio with no browser: the person's part (open the link, press
 * Approve or Deny, be sent back to the loopback callback) is played over plain HTTP against the
 * sandbox's consent endpoint. The browser files (auth-*.test.ts) prove the real page in Chromium;
 * these run on every machine, so `auth_login` and `auth_logout` are covered without one.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { captureStderr, type StdioLike, startStdioLike } from '../../auth/server.js';
import { textOf } from '../../helpers/harness.js';
import { answer, openConsent } from '../../sandbox/oauth-helpers.js';

describe('auth_login and auth_logout without a browser', () => {
  let sandbox: Sandbox;
  const stderr = captureStderr();
  const open: StdioLike[] = [];
  const dirs: string[] = [];
  /** The person's answers in flight (each ends at the loopback callback). */
  const answering: Promise<number>[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ quiet: true });
  });
  afterAll(async () => {
    await Promise.allSettled(answering);
    for (const server of open) await server.close().catch(() => {});
    stderr.stop();
    await sandbox?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** Plays the person: opens the consent page, presses a button, follows the redirect back. */
  const decide = (decision: 'approve' | 'deny') => (url: string) => {
    answering.push(
      (async () => {
        const { consentId } = await openConsent(url);
        if (!consentId) throw new Error(`no consent form at ${url}`);
        const back = await answer(sandbox, consentId, decision);
        if (!back.location) throw new Error(`consent did not redirect (HTTP ${back.status})`);
        return (await fetch(back.location)).status;
      })(),
    );
    return 'accept' as const;
  };

  const start = async (elicit: (url: string) => 'accept' | 'decline') => {
    const dir = await mkdtemp(join(tmpdir(), 'orbit-consent-'));
    dirs.push(dir);
    const configDir = join(dir, 'config');
    const server = await startStdioLike({ baseUrl: sandbox.url, configDir, elicit });
    open.push(server);
    return { server, configDir };
  };
  const storedKey = async (configDir: string): Promise<string | undefined> => {
    const file = JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8'));
    return file.platforms[sandbox.url]?.api_key?.value;
  };

  it('auth_login signs in when the person approves, and stores the key 0600', async () => {
    const { server, configDir } = await start(decide('approve'));
    const login = await server.call('auth_login');
    expect(login.isError, textOf(login)).toBeFalsy();
    expect(login.structuredContent).toEqual({ signed_in: true, source: 'store' });
    expect(textOf(login)).toBe('Signed in (API key from store).');

    expect(server.elicited).toHaveLength(1);
    const link = new URL(server.elicited[0]!);
    expect(link.pathname).toBe('/auth');
    expect(link.searchParams.get('code_challenge_method')).toBe('S256');
    // The loopback answered the browser's landing with success.
    expect(await answering.at(-1)).toBe(200);

    const key = await storedKey(configDir);
    expect(key).toMatch(/^sk-orbit-app-/);
    expect((await stat(join(configDir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    // The key went to the file, never into the reply.
    expect(JSON.stringify(login)).not.toContain(key!);
    const exchange = sandbox.requests.filter((r) => r.method === 'POST' && r.path.includes('/auth/keys'));
    expect(exchange.at(-1)?.status).toBe(200);

    // Asked again, it says so from the store without a second sign-in.
    expect((await server.call('auth_login')).structuredContent).toEqual({ signed_in: true, source: 'store' });
    expect(server.elicited).toHaveLength(1);
  });

  it('auth_login is an error that says how to go on when the person denies', async () => {
    const { server, configDir } = await start(decide('deny'));
    const login = await server.call('auth_login');
    expect(login.isError).toBe(true);
    expect(textOf(login)).toMatch(
      /sign_in_failed\): Sign-in was denied[\s\S]*access_denied[\s\S]*Fix: Call the tool again/,
    );
    await expect(readFile(join(configDir, 'credentials.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('auth_login says a key may exist, and where to see it, when the exchange answered 2xx without one', async () => {
    // Issue 32 item 1: the code was spent and the platform accepted the exchange.
    sandbox.faults.add({ match: { path: '/api/v1/auth/keys' }, reshape: { replace: {} } });
    const { server } = await start(decide('approve'));
    const login = await server.call('auth_login');
    expect(login.isError).toBe(true);
    expect(textOf(login)).toMatch(
      /accepted the exchange \(HTTP 200\) but sent no key this server could read/,
    );
    expect(textOf(login)).toMatch(
      /Fix: A key may have been made that never reached this server: .*api_keys_read/,
    );
    expect(textOf(login)).not.toMatch(/Call the tool again/);
  });

  it('auth_logout removes the stored key, and the next auth_login asks again', async () => {
    const { server, configDir } = await start(decide('approve'));
    expect((await server.call('auth_login')).structuredContent).toEqual({ signed_in: true, source: 'store' });
    const out = await server.call('auth_logout');
    expect(out.isError, textOf(out)).toBeFalsy();
    expect(out.structuredContent).toEqual({ removed: ['api_key'] });
    expect(textOf(out)).toBe('Removed stored api_key.');
    expect(await storedKey(configDir)).toBeUndefined();

    const again = await server.call('auth_logout');
    expect(again.structuredContent).toEqual({ removed: [] });
    expect(textOf(again)).toBe('Nothing was stored by this server.');

    expect((await server.call('auth_login')).structuredContent).toEqual({ signed_in: true, source: 'store' });
    expect(server.elicited).toHaveLength(2);
  });

  it('auth_logout is an error, and the stored key stays whole, while another process holds the file', async () => {
    const { server, configDir } = await start(decide('approve'));
    expect((await server.call('auth_login')).structuredContent).toEqual({ signed_in: true, source: 'store' });
    const key = await storedKey(configDir);
    const lock = join(configDir, 'credentials.json.lock');
    await writeFile(lock, '');
    try {
      const out = await server.call('auth_logout');
      expect(out.isError).toBe(true);
      expect(textOf(out)).toContain('locked by another orbit-mcp process');
      expect(textOf(out)).toContain('delete that file');
      expect(await storedKey(configDir)).toBe(key);
    } finally {
      await rm(lock, { force: true });
    }
  });
});
