/**
 * Abuse of the sign-in flows, through a real browser where a browser is involved: each attempt
 * is refused with the documented error, and nothing is redirected where it must not be.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { answerInBrowser, describeWithBrowser, launchBrowser } from '../../auth/browser.js';
import { authorizeUrl, pkce, postJson } from '../../sandbox/oauth-helpers.js';

describeWithBrowser(import.meta.url, 'sign-in abuse cases', () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let app: Server;
  let callback: string;
  const hits: URLSearchParams[] = [];

  beforeAll(async () => {
    [sandbox, browser] = await Promise.all([startSandbox({ quiet: true }), launchBrowser()]);
    app = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // The browser also asks for /favicon.ico; only callbacks count.
      if (url.pathname === '/callback') hits.push(url.searchParams);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>App callback</h1>');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', () => resolve()));
    callback = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
  });
  afterAll(async () => {
    app?.close();
    await browser?.close();
    await sandbox?.close();
  });

  /** Approves in the browser and returns the code the app's callback received. */
  const codeFromBrowser = async (challenge: string) => {
    const url = authorizeUrl(sandbox, '/auth', {
      callback_url: callback,
      code_challenge: challenge,
      state: 'abuse',
      client_name: 'Abuse',
    });
    const seen = await answerInBrowser(browser, url, 'approve');
    expect(seen.finalHeading).toBe('App callback');
    const params = hits.at(-1)!;
    expect(params.get('state')).toBe('abuse');
    return params.get('code')!;
  };

  it('a reused code: the second exchange gets 400 invalid_grant', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFromBrowser(challenge);
    expect((await postJson(sandbox, '/api/v1/auth/keys', { code, code_verifier: verifier })).status).toBe(
      200,
    );
    const again = await postJson(sandbox, '/api/v1/auth/keys', { code, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect((await again.json()).error).toBe('invalid_grant');
  });

  it('a short verifier: 400 invalid_request, and the code is spent', async () => {
    const { verifier, challenge } = pkce('v'.repeat(42));
    const code = await codeFromBrowser(challenge);
    const res = await postJson(sandbox, '/api/v1/auth/keys', { code, code_verifier: verifier });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining('43..128'),
    });
    const again = await postJson(sandbox, '/api/v1/auth/keys', { code, code_verifier: pkce().verifier });
    expect(await again.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('already used'),
    });
  });

  it('a plain challenge: the browser is sent back with error=invalid_request and the state', async () => {
    const page = await browser.newPage();
    try {
      hits.length = 0;
      await page.goto(
        authorizeUrl(sandbox, '/auth', {
          callback_url: callback,
          code_challenge: 'p'.repeat(43),
          code_challenge_method: 'plain',
          state: 'pl',
        }),
      );
      expect(await page.textContent('h1')).toBe('App callback');
      expect(hits[0]?.get('error')).toBe('invalid_request');
      expect(hits[0]?.get('state')).toBe('pl');
      expect(hits[0]?.get('code')).toBeNull();
    } finally {
      await page.close();
    }
  });

  for (const [name, target] of [
    ['a fragment', () => `${callback}#steal`],
    ['no port', () => 'http://127.0.0.1/callback'],
  ] as const) {
    it(`a redirect with ${name}: 400 invalid_redirect_uri on the platform's own page, never redirected`, async () => {
      const page = await browser.newPage();
      try {
        hits.length = 0;
        const response = await page.goto(
          authorizeUrl(sandbox, '/auth', {
            callback_url: target(),
            code_challenge: pkce().challenge,
            state: 'x',
          }),
        );
        expect(response?.status()).toBe(400);
        expect(new URL(page.url()).origin).toBe(sandbox.url);
        expect(await page.textContent('#error')).toBe('invalid_redirect_uri');
        expect(await page.locator('form').count()).toBe(0);
        expect(hits).toHaveLength(0);
      } finally {
        await page.close();
      }
    });
  }
});
