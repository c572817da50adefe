import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserElsewhere, isDesktop } from '../../src/auth/desktop.js';
import { startLoopback } from '../../src/auth/loopback.js';
import { challengeFor, createVerifier, VERIFIER_PATTERN } from '../../src/auth/pkce.js';
import { discoverShortcut, exchangeCode, startShortcut } from '../../src/auth/shortcut.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { answer, openConsent } from '../sandbox/oauth-helpers.js';

describe('PKCE', () => {
  it('makes verifiers from the allowed set and S256 challenges', () => {
    const verifier = createVerifier();
    expect(verifier).toMatch(VERIFIER_PATTERN);
    expect(challengeFor(verifier)).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(() => challengeFor('too-short')).toThrow(/43\.\.128/);
  });
});

describe('desktop detection', () => {
  it('opens a browser only on a desktop and never in CI', () => {
    expect(isDesktop({}, 'darwin')).toBe(true);
    expect(isDesktop({ CI: 'true' }, 'darwin')).toBe(false);
    expect(isDesktop({ ORBIT_NO_BROWSER: '1' }, 'win32')).toBe(false);
    expect(isDesktop({}, 'linux')).toBe(false);
    expect(isDesktop({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(isDesktop({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
  });

  it('reads ORBIT_NO_BROWSER and CI with the one on/off parser: 0/false/no/off are off', () => {
    for (const off of ['0', 'false', 'no', 'off', 'FALSE', '']) {
      expect(isDesktop({ ORBIT_NO_BROWSER: off }, 'darwin'), `ORBIT_NO_BROWSER=${off}`).toBe(true);
      expect(isDesktop({ CI: off }, 'win32'), `CI=${off}`).toBe(true);
    }
    for (const on of ['1', 'true', 'yes', 'on']) {
      expect(isDesktop({ ORBIT_NO_BROWSER: on }, 'darwin'), `ORBIT_NO_BROWSER=${on}`).toBe(false);
    }
  });
});

describe('where the browser is', () => {
  it('expects it elsewhere over SSH, in a container or console without a display, or when told so', () => {
    expect(browserElsewhere({}, 'linux')).toBe(true);
    expect(browserElsewhere({ DISPLAY: ':0' }, 'linux')).toBe(false);
    // ssh -X: a browser started here shows on the person's screen and reaches this machine.
    expect(
      browserElsewhere({ SSH_CONNECTION: '10.0.0.2 5000 10.0.0.1 22', DISPLAY: 'localhost:10.0' }, 'linux'),
    ).toBe(false);
    expect(browserElsewhere({}, 'darwin')).toBe(false);
    expect(browserElsewhere({ SSH_CONNECTION: '10.0.0.2 5000 10.0.0.1 22' }, 'darwin')).toBe(true);
    expect(browserElsewhere({ SSH_TTY: '/dev/pts/0' }, 'win32')).toBe(true);
    expect(browserElsewhere({ ORBIT_SIGN_IN_PASTE: '1', DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(browserElsewhere({ ORBIT_SIGN_IN_PASTE: 'off' }, 'linux')).toBe(false);
    expect(browserElsewhere({ ORBIT_SIGN_IN_PASTE: '' }, 'linux')).toBe(true);
    // A browser opened on a Mac reached over SSH would show on its own screen, not the person's.
    expect(isDesktop({ SSH_CLIENT: '10.0.0.2 5000 22' }, 'darwin')).toBe(false);
  });
});

describe('loopback listener', () => {
  it('answers the one callback with the right state, then closes', async () => {
    const closed: string[] = [];
    const loopback = await startLoopback({
      state: 'the-state',
      timeoutMs: 10_000,
      onCallback: async (params) => ({ ok: true, title: 'Signed in', message: `got ${params.code}` }),
      onClose: (reason) => closed.push(reason),
    });
    expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const wrongPath = await fetch(loopback.redirectUri.replace('/callback', '/other'));
    expect(wrongPath.status).toBe(404);
    const noState = await fetch(`${loopback.redirectUri}?code=abc`);
    expect(noState.status).toBe(400);
    const ok = await fetch(`${loopback.redirectUri}?code=abc&state=the-state`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('got abc');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toEqual(['done']);
    await expect(fetch(`${loopback.redirectUri}?code=abc&state=the-state`)).rejects.toThrow();
  });

  it('closes by itself after its timeout', async () => {
    const closed = new Promise((resolve) => {
      void startLoopback({
        state: 's',
        timeoutMs: 50,
        onCallback: async () => ({ ok: true, title: '', message: '' }),
        onClose: resolve,
      });
    });
    expect(await closed).toBe('timeout');
  });
});

describe('shortcut flow against the sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ quiet: true });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('finds the endpoints through discovery, matching the extension keys by pattern', async () => {
    expect(await discoverShortcut(sandbox.url)).toEqual({
      authorize: `${sandbox.url}/auth`,
      exchange: `${sandbox.url}/api/v1/auth/keys`,
    });
  });

  it('matches the extension keys of a platform that uses another word', async () => {
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          'x-acme-oauth-shortcut-authorization_endpoint': 'http://127.0.0.1:1/consent',
          'x-acme-oauth-shortcut-token_endpoint': 'https://keys.acme.example/exchange',
          'x-acme-oauth-shortcut-code_endpoint': 'javascript:alert(1)',
        }),
      );
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
    const base = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      expect(await discoverShortcut(base)).toEqual({
        authorize: 'http://127.0.0.1:1/consent',
        exchange: 'https://keys.acme.example/exchange',
      });
    } finally {
      other.close();
    }
  });

  it('falls back to the documented paths when discovery is missing', async () => {
    sandbox.faults.add({ match: { path: '/.well-known/oauth-authorization-server' }, status: 404 });
    expect(await discoverShortcut(sandbox.url)).toEqual({
      authorize: `${sandbox.url}/auth`,
      exchange: `${sandbox.url}/api/v1/auth/keys`,
    });
  });

  it('gets a key when the browser approves, and reports invalid_grant for a replayed code', async () => {
    const flow = await startShortcut({ baseUrl: sandbox.url, clientName: 'flow test', ttlMs: 10_000 });
    const { consentId } = await openConsent(flow.url);
    const back = await answer(sandbox, consentId!, 'approve');
    const code = back.location!.searchParams.get('code')!;
    // Play the browser's redirect to the loopback listener.
    const page = await fetch(back.location!);
    expect(await page.text()).toContain('Signed in');
    const result = await flow.result;
    expect(result).toMatchObject({
      ok: true,
      key: expect.stringMatching(/^sk-orbit-app-/),
      scope: 'models.read api.use',
      userId: 'user_demo',
    });
    const replay = await exchangeCode(`${sandbox.url}/api/v1/auth/keys`, code, createVerifier());
    expect(replay).toMatchObject({ ok: false, error: 'invalid_grant' });
  });

  it('reports access_denied when the person denies, and cancelled when the flow is closed', async () => {
    const denied = await startShortcut({ baseUrl: sandbox.url, clientName: 'flow test', ttlMs: 10_000 });
    const { consentId } = await openConsent(denied.url);
    const back = await answer(sandbox, consentId!, 'deny');
    expect(await (await fetch(back.location!)).text()).toContain('Sign-in cancelled');
    expect(await denied.result).toMatchObject({ ok: false, error: 'access_denied' });

    const cancelled = await startShortcut({ baseUrl: sandbox.url, clientName: 'flow test', ttlMs: 10_000 });
    cancelled.cancel();
    expect(await cancelled.result).toMatchObject({ ok: false, error: 'cancelled' });
  });
});
