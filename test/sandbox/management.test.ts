import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE, SANDBOX_MANAGEMENT_TOKENS as T } from '../../src/sandbox/accounts/fixtures.js';
import { SANDBOX_DEMO_KEY } from '../../src/sandbox/index.js';
import { bearer, send } from './accounts-helpers.js';
import { chatBody, post, useSandbox } from './helpers.js';

const KEYS = '/api/management/v1/api-keys';
const USAGE = '/api/management/v1/subscription/usage';

describe('management API auth (spec 1 §4.3, §5, §7.2)', () => {
  const sandbox = useSandbox();

  it('answers 401 invalid_management_token in the common envelope when no token is sent', async () => {
    const res = await send(sandbox(), 'GET', KEYS);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: {
        message: expect.stringContaining('Missing management token'),
        type: 'authentication_error',
        code: 'invalid_management_token',
      },
    });
  });

  it('refuses an inference API key and says a management token is needed', async () => {
    for (const headers of [bearer(SANDBOX_DEMO_KEY), { 'x-api-key': SANDBOX_DEMO_KEY }]) {
      const res = await send(sandbox(), 'GET', USAGE, { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_management_token');
      expect(res.body.error.message).toMatch(/management token/);
    }
  });

  it('refuses unknown, expired and revoked tokens, each with its reason', async () => {
    const cases = [
      ['mt-unknown', /not valid/],
      [T.expired, /expired/],
      [T.revoked, /revoked/],
    ] as const;
    for (const [secret, reason] of cases) {
      const res = await send(sandbox(), 'GET', KEYS, { headers: bearer(secret) });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({
        code: 'invalid_management_token',
        message: expect.stringMatching(reason),
      });
    }
  });

  it('never accepts a token in the URL, even a valid one', async () => {
    const res = await send(sandbox(), 'GET', `${USAGE}?token=${T.all}`, { headers: bearer(T.all) });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/never accepted in the URL/);
  });

  it('answers 403 insufficient_scope naming the missing scope', async () => {
    const res = await send(sandbox(), 'GET', KEYS, { headers: bearer(T.usage) });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
    expect(res.body.error.message).toContain('api_keys:read');
    expect(res.headers.get('www-authenticate')).toContain('scope="api_keys:read"');
  });

  it('does not let API-key scopes read usage, nor api_keys:read write', async () => {
    const usage = await send(sandbox(), 'GET', USAGE, { headers: bearer(T.keysWrite) });
    expect(usage.status).toBe(403);
    expect(usage.body.error.message).toContain('usage:read');
    const create = await send(sandbox(), 'POST', KEYS, {
      headers: { ...bearer(T.keysRead), 'idempotency-key': 'k-scope' },
      body: { name: 'nope' },
    });
    expect(create.status).toBe(403);
    expect(create.body.error.message).toContain('api_keys:write');
  });

  it('lets api_keys:write read keys too (write includes read)', async () => {
    const res = await send(sandbox(), 'GET', KEYS, { headers: bearer(T.keysWrite) });
    expect(res.status).toBe(200);
  });

  it('marks replies private and uncached, with an X-Request-Id, errors included', async () => {
    for (const headers of [bearer(T.usage), {}]) {
      const res = await send(sandbox(), 'GET', USAGE, { headers });
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('x-request-id')).toMatch(/^req_\d{6}$/);
    }
  });

  it('refuses a management token on inference and usage routes, naming the API key', async () => {
    const chat = await post(sandbox(), '/api/v1/chat/completions', chatBody(), bearer(T.all));
    expect(chat.status).toBe(401);
    expect((await chat.json()).error).toMatchObject({
      code: 'invalid_api_key',
      message: expect.stringContaining('management token'),
    });
    const usage = await send(sandbox(), 'GET', '/api/subscription/v1/usage', { headers: bearer(T.all) });
    expect(usage.status).toBe(401);
    expect(usage.body).toEqual({
      error: expect.stringContaining('take an API key'),
      status: 401,
      code: 'invalid_api_key',
    });
  });
});

describe('management API keys (spec 1 §4.3)', () => {
  const sandbox = useSandbox();
  const write = (key: string) => ({ ...bearer(T.keysWrite), 'idempotency-key': key });

  it('lists the owner account keys without secrets', async () => {
    const res = await send(sandbox(), 'GET', KEYS, { headers: bearer(T.keysRead) });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    const demo = res.body.data.find((k: { name: string }) => k.name === 'demo');
    expect(demo).toMatchObject({
      id: expect.stringMatching(/^key_\d{6}$/),
      object: 'api_key',
      key_preview: 'sk-orbit-…demo',
      disabled: false,
      expires_at: null,
    });
    expect(JSON.stringify(res.body)).not.toContain(SANDBOX_DEMO_KEY);
    expect(JSON.stringify(res.body)).not.toContain(SANDBOX_PEOPLE.member.apiKey.slice(-6));
  });

  it('creates a key with a daily cap; the secret is in the creation reply only', async () => {
    const created = await send(sandbox(), 'POST', KEYS, {
      headers: write('create-ci'),
      body: { name: 'CI', daily_usd_limit: 5 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'CI',
      daily_usd_limit: 5,
      key: expect.stringMatching(/^sk-orbit-/),
    });
    const secret: string = created.body.key;
    expect(created.body.key_preview.endsWith(secret.slice(-4))).toBe(true);

    const read = await send(sandbox(), 'GET', `${KEYS}/${created.body.id}`, { headers: bearer(T.keysRead) });
    const list = await send(sandbox(), 'GET', KEYS, { headers: bearer(T.keysRead) });
    const patched = await send(sandbox(), 'PATCH', `${KEYS}/${created.body.id}`, {
      headers: bearer(T.keysWrite),
      body: { name: 'CI runner' },
    });
    for (const reply of [read, list, patched]) {
      expect(reply.status).toBe(200);
      expect(JSON.stringify(reply.body)).not.toContain(secret);
    }
    expect(patched.body.name).toBe('CI runner');

    // The new key works on inference routes and spends from the owner's account.
    const chat = await post(sandbox(), '/api/v1/chat/completions', chatBody(), bearer(secret));
    expect(chat.status).toBe(200);
  });

  it('replays a retried create exactly (same secret, one key) and marks the replay', async () => {
    const body = { name: 'retry me', daily_request_limit: 10 };
    const first = await send(sandbox(), 'POST', KEYS, { headers: write('retry-1'), body });
    const again = await send(sandbox(), 'POST', KEYS, {
      headers: write('retry-1'),
      body: { daily_request_limit: 10, name: 'retry me' },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const list = await send(sandbox(), 'GET', KEYS, { headers: bearer(T.keysRead) });
    expect(list.body.data.filter((k: { name: string }) => k.name === 'retry me')).toHaveLength(1);
  });

  it('refuses the same Idempotency-Key with a different body (409) and makes no key', async () => {
    await send(sandbox(), 'POST', KEYS, { headers: write('reuse-1'), body: { name: 'first' } });
    const res = await send(sandbox(), 'POST', KEYS, { headers: write('reuse-1'), body: { name: 'second' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    const list = await send(sandbox(), 'GET', KEYS, { headers: bearer(T.keysRead) });
    expect(list.body.data.some((k: { name: string }) => k.name === 'second')).toBe(false);
  });

  it('keeps Idempotency-Keys per owner: another account may use the same key value', async () => {
    const mine = await send(sandbox(), 'POST', KEYS, {
      headers: write('shared-key'),
      body: { name: 'mine' },
    });
    const theirs = await send(sandbox(), 'POST', KEYS, {
      headers: { ...bearer(T.memberAll), 'idempotency-key': 'shared-key' },
      body: { name: 'theirs' },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('requires an Idempotency-Key to create', async () => {
    const res = await send(sandbox(), 'POST', KEYS, { headers: bearer(T.keysWrite), body: { name: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'missing_required_parameter', param: 'Idempotency-Key' });
  });

  it('validates bodies with the field that is wrong', async () => {
    const cases = [
      [{}, 'missing_required_parameter', 'name'],
      [{ name: 'x', daily_usd_limit: -1 }, 'invalid_parameter_value', 'daily_usd_limit'],
      [{ name: 'x', expires_at: '2020-01-01' }, 'invalid_parameter_value', 'expires_at'],
      [{ name: 'x', expires_at: '2020-01-01T00:00:00Z' }, 'invalid_parameter_value', 'expires_at'],
      [{ name: 'x', colour: 'red' }, 'invalid_parameter_value', 'colour'],
    ] as const;
    for (const [i, [body, code, param]] of cases.entries()) {
      const res = await send(sandbox(), 'POST', KEYS, { headers: write(`bad-${i}`), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    }
  });

  it('disables, expires and deletes a key; each stops it working', async () => {
    const make = async (name: string) =>
      (await send(sandbox(), 'POST', KEYS, { headers: write(`life-${name}`), body: { name } })).body;
    const disabled = await make('to-disable');
    await send(sandbox(), 'PATCH', `${KEYS}/${disabled.id}`, {
      headers: bearer(T.keysWrite),
      body: { disabled: true },
    });
    const refused = await post(sandbox(), '/api/v1/chat/completions', chatBody(), bearer(disabled.key));
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toMatch(/disabled/);

    const deleted = await make('to-delete');
    const del = await send(sandbox(), 'DELETE', `${KEYS}/${deleted.id}`, { headers: bearer(T.keysWrite) });
    expect(del.body).toEqual({ id: deleted.id, object: 'api_key', deleted: true });
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody(), bearer(deleted.key))).status).toBe(
      401,
    );
    const gone = await send(sandbox(), 'GET', `${KEYS}/${deleted.id}`, { headers: bearer(T.keysRead) });
    expect(gone.status).toBe(404);
  });

  it('hides other accounts keys: their ids are not found', async () => {
    const theirs = await send(sandbox(), 'GET', KEYS, { headers: bearer(T.memberAll) });
    const id = theirs.body.data[0].id;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await send(sandbox(), method, `${KEYS}/${id}`, { headers: bearer(T.keysWrite), body });
      expect(res.status).toBe(404);
      expect(res.body.error.type).toBe('not_found_error');
    }
  });
});

describe('management keys with a moving clock', () => {
  let now = Date.UTC(2025, 2, 12, 15, 30);
  const sandbox = useSandbox({ now: () => now });

  it('stops a key at its expires_at', async () => {
    const created = await send(sandbox(), 'POST', KEYS, {
      headers: { ...bearer(T.keysWrite), 'idempotency-key': 'exp' },
      body: { name: 'short', expires_at: '2025-03-12T16:00:00Z' },
    });
    expect(created.body.expires_at).toBe('2025-03-12T16:00:00.000Z');
    expect(
      (await post(sandbox(), '/api/v1/chat/completions', chatBody(), bearer(created.body.key))).status,
    ).toBe(200);
    now = Date.UTC(2025, 2, 12, 16, 0);
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), bearer(created.body.key));
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toMatch(/expired/);
  });

  it('expires management tokens after 90 days by default', async () => {
    const minted = await send(sandbox(), 'POST', '/__sandbox/management-tokens', {
      body: { scopes: ['usage:read'] },
    });
    expect(minted.body.expires_at).toBe(new Date(now + 90 * 86_400_000).toISOString());
    now += 90 * 86_400_000 - 1;
    expect((await send(sandbox(), 'GET', USAGE, { headers: bearer(minted.body.token) })).status).toBe(200);
    now += 1;
    const res = await send(sandbox(), 'GET', USAGE, { headers: bearer(minted.body.token) });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
  });
});

describe('idempotency window', () => {
  let now = Date.UTC(2025, 2, 12, 15, 30);
  const sandbox = useSandbox({ now: () => now });

  it('replays for a day, then the same Idempotency-Key makes a new key', async () => {
    const create = () =>
      send(sandbox(), 'POST', KEYS, {
        headers: { ...bearer(T.keysWrite), 'idempotency-key': 'daily' },
        body: { name: 'nightly' },
      });
    const first = await create();
    now += 86_400_000 - 1;
    expect((await create()).body.id).toBe(first.body.id);
    now += 1;
    const later = await create();
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
  });
});
