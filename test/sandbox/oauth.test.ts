import { describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_KEY } from '../../src/sandbox/index.js';
import { checkRedirectUri, normaliseScope } from '../../src/sandbox/oauth/rules.js';
import { chatBody, post, useSandbox } from './helpers.js';
import {
  answer,
  authorizeUrl,
  openConsent,
  pkce,
  postForm,
  postJson,
  shortcutCode,
} from './oauth-helpers.js';

let clock = Date.UTC(2025, 0, 6, 12, 0, 0);
const LOOPBACK = 'http://127.0.0.1:53682/callback';

describe('sandbox OAuth: discovery and guide', () => {
  const sandbox = useSandbox({ now: () => clock });

  it('publishes authorization-server metadata with the shortcut extension keys', async () => {
    const res = await fetch(`${sandbox().url}/.well-known/oauth-authorization-server`);
    const doc = await res.json();
    const base = sandbox().url;
    expect(doc).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['models.read', 'api.use'],
      'x-orbit-token-format': 'api_key',
      'x-orbit-oauth-shortcut-authorization_endpoint': `${base}/auth`,
      'x-orbit-oauth-shortcut-token_endpoint': `${base}/api/v1/auth/keys`,
      'x-orbit-oauth-shortcut-code_endpoint': `${base}/api/v1/auth/keys/code`,
    });
    expect(doc.service_documentation).toBe(`${base}/auth.md`);
  });

  it('publishes protected-resource metadata and a markdown auth guide', async () => {
    const prm = await (await fetch(`${sandbox().url}/.well-known/oauth-protected-resource`)).json();
    expect(prm).toMatchObject({ resource: sandbox().url, authorization_servers: [sandbox().url] });
    const guide = await fetch(`${sandbox().url}/auth.md`);
    expect(guide.headers.get('content-type')).toContain('text/markdown');
    expect(await guide.text()).toContain('/api/v1/auth/keys');
  });
});

describe('sandbox OAuth: redirect URI and scope rules', () => {
  it.each([
    ['https://app.example.com/cb', 'https://app.example.com/cb'],
    ['http://127.0.0.1:8080/cb', 'http://127.0.0.1:8080/cb'],
    ['http://localhost:8080/cb?x=1', 'http://127.0.0.1:8080/cb?x=1'],
    ['http://[::1]:9/cb', 'http://127.0.0.1:9/cb'],
    ['http://127.0.0.1:80/cb', 'http://127.0.0.1:80/cb'],
  ])('accepts %s as %s', (raw, canonical) => {
    expect(checkRedirectUri(raw)).toEqual({ ok: true, value: canonical });
  });

  it.each([
    ['http://127.0.0.1/cb', /explicit port/],
    ['http://localhost/cb', /explicit port/],
    ['http://app.example.com:8080/cb', /HTTPS/],
    ['https://app.example.com/cb#frag', /fragment/],
    ['https://*.example.com/cb', /wildcard/i],
    ['https://user:pw@app.example.com/cb', /credentials/],
    ['myapp://callback', /scheme/],
    ['/relative', /absolute/],
  ])('rejects %s', (raw, reason) => {
    const checked = checkRedirectUri(raw);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toMatch(reason);
  });

  it('normalises scopes to "models.read api.use" and requires api.use', () => {
    expect(normaliseScope(undefined)).toEqual({ ok: true, value: 'models.read api.use' });
    expect(normaliseScope('api.use models.read')).toEqual({ ok: true, value: 'models.read api.use' });
    expect(normaliseScope('api.use')).toEqual({ ok: true, value: 'api.use' });
    expect(normaliseScope('models.read').ok).toBe(false);
    expect(normaliseScope('api.use admin').ok).toBe(false);
  });
});

describe('sandbox OAuth: shortcut flow', () => {
  const sandbox = useSandbox({ now: () => clock });
  const { challenge } = pkce();

  it('shows a consent page with app, redirect host, account, balance, scopes, spend warning and cap', async () => {
    const { res, html, consentId } = await openConsent(
      authorizeUrl(sandbox(), '/auth', {
        callback_url: LOOPBACK,
        code_challenge: challenge,
        state: 's',
        app_name: '<b>Tool</b>',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(consentId).toBeTruthy();
    expect(html).toContain('&#60;b&#62;Tool&#60;/b&#62;');
    expect(html).not.toContain('<b>Tool</b>');
    expect(html).toContain('127.0.0.1:53682');
    expect(html).toContain('demo@sandbox.invalid');
    expect(html).toMatch(/\d+\.\d\d USD/);
    expect(html).toContain('models.read');
    expect(html).toContain('id="spend-warning"');
    expect(html).toContain('name="spend_cap"');
    expect(html).toMatch(/value="approve"/);
    expect(html).toMatch(/value="deny"/);
  });

  it('issues a prefixed key for a code exchanged with JSON, and the key works on API routes', async () => {
    const { code, verifier } = await shortcutCode(sandbox());
    const res = await postJson(sandbox(), '/api/v1/auth/keys', { code, code_verifier: verifier });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual({
      key: expect.stringMatching(/^sk-orbit-app-/),
      access_token: body.key,
      token_type: 'Bearer',
      scope: 'models.read api.use',
      user_id: 'user_demo',
    });
    const chat = await post(sandbox(), '/api/v1/chat/completions', chatBody(), {
      authorization: `Bearer ${body.key}`,
    });
    expect(chat.status).toBe(200);
  });

  it('takes a form-encoded exchange with grant_type', async () => {
    const { code, verifier } = await shortcutCode(sandbox());
    const res = await postForm(sandbox(), '/api/v1/auth/keys', {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
  });

  it('refuses a reused code with invalid_grant', async () => {
    const { code, verifier } = await shortcutCode(sandbox());
    expect((await postJson(sandbox(), '/api/v1/auth/keys', { code, code_verifier: verifier })).status).toBe(
      200,
    );
    const again = await postJson(sandbox(), '/api/v1/auth/keys', { code, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringContaining('single-use'),
    });
  });

  it('refuses a short verifier with invalid_request and a wrong one with invalid_grant', async () => {
    const short = await shortcutCode(sandbox());
    const res = await postJson(sandbox(), '/api/v1/auth/keys', {
      code: short.code,
      code_verifier: 'a'.repeat(42),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_request');
    const wrong = await shortcutCode(sandbox());
    const res2 = await postJson(sandbox(), '/api/v1/auth/keys', {
      code: wrong.code,
      code_verifier: pkce().verifier,
    });
    expect(res2.status).toBe(400);
    expect((await res2.json()).error).toBe('invalid_grant');
  });

  it('refuses an expired code with invalid_grant', async () => {
    const { code, verifier } = await shortcutCode(sandbox());
    clock += 61_000;
    const res = await postJson(sandbox(), '/api/v1/auth/keys', { code, code_verifier: verifier });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });
  });

  it('refuses a wrong grant_type and missing fields', async () => {
    const bad = await postJson(sandbox(), '/api/v1/auth/keys', {
      code: 'x',
      code_verifier: 'y',
      grant_type: 'password',
    });
    expect((await bad.json()).error).toBe('unsupported_grant_type');
    const missing = await postJson(sandbox(), '/api/v1/auth/keys', { code: 'x' });
    expect(await missing.json()).toEqual({
      error: 'invalid_request',
      error_description: 'code_verifier is required.',
    });
  });

  it('redirects a plain challenge back with invalid_request and the state', async () => {
    const res = await fetch(
      authorizeUrl(sandbox(), '/auth', {
        callback_url: LOOPBACK,
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'plain',
        state: 'st',
      }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(LOOPBACK);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('S256');
    expect(location.searchParams.get('state')).toBe('st');
  });

  it('redirects a scope without api.use back with invalid_scope', async () => {
    const res = await fetch(
      authorizeUrl(sandbox(), '/auth', {
        callback_url: LOOPBACK,
        code_challenge: challenge,
        scope: 'models.read',
      }),
      {
        redirect: 'manual',
      },
    );
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  it.each([
    ['a fragment', 'http://127.0.0.1:53682/callback#x'],
    ['no port', 'http://127.0.0.1/callback'],
    ['a wildcard', 'https://*.example.com/cb'],
    ['plain web HTTP', 'http://evil.example:8080/cb'],
  ])(
    'never redirects to a callback with %s: the error shows on the platform page',
    async (_name, callback) => {
      const res = await fetch(
        authorizeUrl(sandbox(), '/auth', { callback_url: callback, code_challenge: challenge, state: 's' }),
        {
          redirect: 'manual',
        },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('invalid_redirect_uri');
    },
  );

  it('redirects a denial with access_denied and the state, and the consent cannot be answered twice', async () => {
    const { consentId } = await openConsent(
      authorizeUrl(sandbox(), '/auth', {
        redirect_uri: LOOPBACK,
        code_challenge: challenge,
        state: 'deny-me',
      }),
    );
    const back = await answer(sandbox(), consentId!, 'deny');
    expect(back.status).toBe(302);
    expect(back.location?.searchParams.get('error')).toBe('access_denied');
    expect(back.location?.searchParams.get('state')).toBe('deny-me');
    const again = await answer(sandbox(), consentId!, 'approve');
    expect(again.status).toBe(400);
    expect(again.location).toBeUndefined();
  });

  it('canonicalises a localhost callback to 127.0.0.1', async () => {
    const { consentId } = await openConsent(
      authorizeUrl(sandbox(), '/auth', {
        callback_url: 'http://localhost:4000/cb',
        code_challenge: challenge,
        state: 's',
      }),
    );
    const back = await answer(sandbox(), consentId!, 'approve');
    expect(back.location?.origin).toBe('http://127.0.0.1:4000');
  });
});

describe('sandbox OAuth: app limits on issued keys', () => {
  const sandbox = useSandbox({ now: () => clock });
  const keyFor = async (cap?: { usd: string; period?: string }) => {
    const { code, verifier } = await shortcutCode(sandbox(), { cap });
    return (await (await postJson(sandbox(), '/api/v1/auth/keys', { code, code_verifier: verifier })).json())
      .key as string;
  };

  it('blocks paid spend with a cap of 0 and leaves free calls alone', async () => {
    const key = await keyFor({ usd: '0', period: 'daily' });
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), {
      authorization: `Bearer ${key}`,
    });
    expect(res.status).toBe(429);
    expect((await res.json()).error.code).toBe('app_spend_cap_exceeded');
    const models = await fetch(`${sandbox().url}/api/v1/models`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(models.status).toBe(200);
  });

  it('spends up to the cap and then refuses with Retry-After until the period ends', async () => {
    const key = await keyFor({ usd: '1', period: 'weekly' });
    const auth = { authorization: `Bearer ${key}` };
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody(), auth)).status).toBe(200);
    const record = sandbox().state.getKey(key)!;
    record.grant!.spendCap!.spentNanos = 1e9;
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), auth);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3600);
  });

  it('spends from the approving account balance', async () => {
    const before = sandbox().state.balance(SANDBOX_DEMO_KEY);
    const key = await keyFor();
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), {
      authorization: `Bearer ${key}`,
    });
    const cost = (await res.json()).x_orbit_pricing.cost;
    expect(sandbox().state.balance(SANDBOX_DEMO_KEY)).toBeCloseTo(before - cost, 9);
  });

  it('ties a loopback key to loopback origins of its port', async () => {
    const key = await keyFor();
    const from = (origin: string) =>
      post(sandbox(), '/api/v1/chat/completions', chatBody(), { authorization: `Bearer ${key}`, origin });
    expect((await from('http://localhost:53682')).status).toBe(200);
    const evil = await from('https://evil.example');
    expect(evil.status).toBe(403);
    expect((await evil.json()).error.code).toBe('origin_not_allowed');
  });
});

describe('sandbox OAuth: standard flow', () => {
  const sandbox = useSandbox({ now: () => clock });

  const registerClient = async (body: Record<string, unknown>) =>
    postJson(sandbox(), '/oauth/register', body);

  it('registers a public client and echoes its metadata with a prefixed client_id', async () => {
    const res = await registerClient({ client_name: 'Remote', redirect_uris: ['http://localhost:7777/cb'] });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      client_id: expect.stringMatching(/^orbit-client-/),
      client_name: 'Remote',
      redirect_uris: ['http://127.0.0.1:7777/cb'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });

  it.each([
    [{ client_name: 'x', redirect_uris: ['https://a.example/cb#f'] }, 'invalid_redirect_uri'],
    [{ client_name: 'x', redirect_uris: ['http://127.0.0.1/cb'] }, 'invalid_redirect_uri'],
    [{ client_name: 'x', redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://a.example/cb'] }, 'invalid_client_metadata'],
    [
      {
        client_name: 'x',
        redirect_uris: ['https://a.example/cb'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      'invalid_client_metadata',
    ],
    [
      { client_name: 'x', redirect_uris: ['https://a.example/cb'], grant_types: ['implicit'] },
      'invalid_client_metadata',
    ],
    [
      { client_name: 'x', redirect_uris: ['https://a.example/cb'], logo_uri: 'http://a.example/logo.png' },
      'invalid_client_metadata',
    ],
  ])('refuses registration %j with %s', async (body, error) => {
    const res = await registerClient(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(error);
  });

  it('runs register, authorize, consent and token, and the access token is an API key', async () => {
    const client = await (
      await registerClient({ client_name: 'Remote', redirect_uris: ['https://app.example/cb'] })
    ).json();
    const { verifier, challenge } = pkce();
    const { consentId, html } = await openConsent(
      authorizeUrl(sandbox(), '/oauth/authorize', {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: 'https://app.example/cb',
        scope: 'api.use',
        state: 'std',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: 'http://127.0.0.1:1/mcp',
      }),
    );
    expect(html).toContain('Remote');
    const back = await answer(sandbox(), consentId!, 'approve');
    expect(back.location?.origin).toBe('https://app.example');
    expect(back.location?.searchParams.get('state')).toBe('std');
    const code = back.location!.searchParams.get('code')!;
    const wrongRedirect = await postForm(sandbox(), '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      redirect_uri: 'https://app.example/other',
      code,
      code_verifier: verifier,
    });
    expect((await wrongRedirect.json()).error).toBe('invalid_grant');
    // That failed attempt consumed the code: a retry with the right redirect is refused too.
    const retry = await postForm(sandbox(), '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      redirect_uri: 'https://app.example/cb',
      code,
      code_verifier: verifier,
    });
    expect((await retry.json()).error).toBe('invalid_grant');
  });

  it('exchanges a standard code at /oauth/token (form) but not at the shortcut endpoint', async () => {
    const client = await (
      await registerClient({ client_name: 'Remote', redirect_uris: ['https://app.example/cb'] })
    ).json();
    const issue = async () => {
      const { verifier, challenge } = pkce();
      const { consentId } = await openConsent(
        authorizeUrl(sandbox(), '/oauth/authorize', {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: 'https://app.example/cb',
          scope: 'models.read api.use',
          state: 's',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
      );
      const back = await answer(sandbox(), consentId!, 'approve');
      return { code: back.location!.searchParams.get('code')!, verifier };
    };
    const a = await issue();
    const shortcut = await postJson(sandbox(), '/api/v1/auth/keys', {
      code: a.code,
      code_verifier: a.verifier,
    });
    expect((await shortcut.json()).error).toBe('invalid_grant');
    const b = await issue();
    const res = await postForm(sandbox(), '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      redirect_uri: 'https://app.example/cb',
      code: b.code,
      code_verifier: b.verifier,
    });
    expect(res.status).toBe(200);
    const tokens = await res.json();
    expect(tokens).toEqual({
      access_token: expect.stringMatching(/^sk-orbit-app-/),
      token_type: 'Bearer',
      scope: 'models.read api.use',
    });
    const chat = await post(sandbox(), '/api/v1/chat/completions', chatBody(), {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(chat.status).toBe(200);
  });

  it('shows errors for an unknown client or unregistered redirect on its own page, and redirects parameter errors', async () => {
    const client = await (
      await registerClient({ client_name: 'Remote', redirect_uris: ['https://app.example/cb'] })
    ).json();
    const { challenge } = pkce();
    const base = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: 'https://app.example/cb',
      scope: 'api.use',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const unknown = await fetch(
      authorizeUrl(sandbox(), '/oauth/authorize', { ...base, client_id: 'orbit-client-nope' }),
      { redirect: 'manual' },
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('invalid_client');
    const unregistered = await fetch(
      authorizeUrl(sandbox(), '/oauth/authorize', { ...base, redirect_uri: 'https://app.example/cb2' }),
      { redirect: 'manual' },
    );
    expect(unregistered.status).toBe(400);
    expect(unregistered.headers.get('location')).toBeNull();
    const token = await fetch(
      authorizeUrl(sandbox(), '/oauth/authorize', { ...base, response_type: 'token' }),
      { redirect: 'manual' },
    );
    expect(new URL(token.headers.get('location')!).searchParams.get('error')).toBe(
      'unsupported_response_type',
    );
    const plain = await fetch(
      authorizeUrl(sandbox(), '/oauth/authorize', { ...base, code_challenge_method: 'plain' }),
      { redirect: 'manual' },
    );
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const noState = await fetch(authorizeUrl(sandbox(), '/oauth/authorize', { ...base, state: '' }), {
      redirect: 'manual',
    });
    expect(new URL(noState.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses /oauth/token from an unknown client with invalid_client', async () => {
    const res = await postForm(sandbox(), '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: 'orbit-client-nope',
      redirect_uri: 'https://app.example/cb',
      code: 'c',
      code_verifier: pkce().verifier,
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('invalid_client');
  });
});

describe('sandbox OAuth: downstream key code', () => {
  const sandbox = useSandbox({ now: () => clock });

  it('lets an unrestricted key mint a code that a local app exchanges for a capped key', async () => {
    const source = sandbox().state.createKey({ account: 'acct_demo' });
    const { verifier, challenge } = pkce();
    const res = await postJson(
      sandbox(),
      '/api/v1/auth/keys/code',
      { redirect_uri: 'http://localhost:5000/cb', code_challenge: challenge, key_label: 'cli', limit: 0 },
      { authorization: `Bearer ${source}`, 'x-title': 'Local CLI' },
    );
    expect(res.status).toBe(201);
    const minted = await res.json();
    expect(minted).toMatchObject({
      code: expect.any(String),
      expires_in: 60,
      redirect_uri: 'http://127.0.0.1:5000/cb',
    });
    const exchanged = await (
      await postJson(sandbox(), '/api/v1/auth/keys', { code: minted.code, code_verifier: verifier })
    ).json();
    expect(exchanged.key).toMatch(/^sk-orbit-app-/);
    const record = sandbox().state.getKey(exchanged.key)!;
    expect(record.label).toBe('cli');
    expect(record.grant).toMatchObject({ clientName: 'Local CLI', spendCap: { usd: 0, period: 'monthly' } });
    // An OAuth-issued key cannot mint further codes.
    const nested = await postJson(
      sandbox(),
      '/api/v1/auth/keys/code',
      { redirect_uri: LOOPBACK, code_challenge: challenge },
      {
        authorization: `Bearer ${exchanged.key}`,
      },
    );
    expect(nested.status).toBe(403);
    expect((await nested.json()).error).toBe('access_denied');
  });

  it('refuses restricted source keys, missing keys and bad parameters', async () => {
    const { challenge } = pkce();
    const body = { redirect_uri: LOOPBACK, code_challenge: challenge };
    const restricted = await postJson(sandbox(), '/api/v1/auth/keys/code', body, {
      authorization: `Bearer ${SANDBOX_DEMO_KEY}`,
    });
    expect(restricted.status).toBe(403);
    const anonymous = await postJson(sandbox(), '/api/v1/auth/keys/code', body);
    expect(anonymous.status).toBe(401);
    const source = sandbox().state.createKey();
    const auth = { authorization: `Bearer ${source}` };
    const plain = await postJson(
      sandbox(),
      '/api/v1/auth/keys/code',
      { ...body, code_challenge_method: 'plain' },
      auth,
    );
    expect((await plain.json()).error).toBe('invalid_request');
    const noPort = await postJson(
      sandbox(),
      '/api/v1/auth/keys/code',
      { ...body, redirect_uri: 'http://127.0.0.1/cb' },
      auth,
    );
    expect((await noPort.json()).error).toBe('invalid_request');
    const past = await postJson(
      sandbox(),
      '/api/v1/auth/keys/code',
      { ...body, expires_at: '2000-01-01T00:00:00Z' },
      auth,
    );
    expect((await past.json()).error).toBe('invalid_request');
  });
});
