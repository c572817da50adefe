import { describe, expect, it } from 'vitest';
import {
  SANDBOX_INVITATIONS,
  SANDBOX_MANAGEMENT_TOKENS,
  SANDBOX_PEOPLE,
  SANDBOX_TEAMS,
} from '../../src/sandbox/accounts/fixtures.js';
import { createManagementToken, createSandboxPerson, sessionCookie } from '../../src/sandbox/index.js';
import { bearer, send } from './accounts-helpers.js';
import { chatBody, post, useSandbox } from './helpers.js';

describe('account controls under /__sandbox', () => {
  const sandbox = useSandbox();

  it('lists the seeded people with their credentials and team roles', async () => {
    const res = await send(sandbox(), 'GET', '/__sandbox/accounts');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { handle: string }) => p.handle)).toEqual(Object.keys(SANDBOX_PEOPLE));
    expect(res.body.data[2]).toEqual({
      handle: 'member',
      sessionId: 3,
      sessionUUID: expect.any(String),
      displayName: SANDBOX_PEOPLE.member.displayName,
      email: SANDBOX_PEOPLE.member.email,
      account: 'acct_member',
      apiKey: SANDBOX_PEOPLE.member.apiKey,
      session: SANDBOX_PEOPLE.member.session,
      cookie: `orbit_session=${SANDBOX_PEOPLE.member.session}`,
      teams: [{ uuid: SANDBOX_TEAMS.main.uuid, id: 1, name: SANDBOX_TEAMS.main.name, role: 'member' }],
    });
    expect(res.body.managementTokens).toEqual(SANDBOX_MANAGEMENT_TOKENS);
  });

  it('adds a person whose key, session and usage all work', async () => {
    const res = await send(sandbox(), 'POST', '/__sandbox/accounts', {
      body: { handle: 'ana', balanceUsd: 3, plan: 'trial' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ handle: 'ana', email: 'ana@sandbox.invalid', teams: [] });
    const chat = await post(sandbox(), '/api/v1/chat/completions', chatBody(), bearer(res.body.apiKey));
    expect(chat.status).toBe(200);
    const teams = await send(sandbox(), 'GET', '/api/teams', { headers: { cookie: res.body.cookie } });
    expect(teams.body).toEqual({ teams: [] });
    const token = await send(sandbox(), 'POST', '/__sandbox/management-tokens', {
      body: { user: 'ana', scopes: ['usage:read'] },
    });
    const usage = await send(sandbox(), 'GET', '/api/management/v1/subscription/usage', {
      headers: bearer(token.body.token),
    });
    expect(usage.body.usageUnits).toBe('tokens');
    const again = await send(sandbox(), 'POST', '/__sandbox/accounts', { body: { handle: 'ana' } });
    expect(again.status).toBe(400);
  });

  it('mints a token per scope set for any person, and refuses bad specs', async () => {
    const res = await send(sandbox(), 'POST', '/__sandbox/management-tokens', {
      body: { user: 'member', scopes: ['api_keys:read'], name: 'ci', expiresInDays: 365 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^mt_/),
      user: 'member',
      scopes: ['api_keys:read'],
    });
    const keys = await send(sandbox(), 'GET', '/api/management/v1/api-keys', {
      headers: bearer(res.body.token),
    });
    expect(keys.body.data.map((k: { name: string }) => k.name)).toEqual(['member key']);
    const bad = [
      { scopes: [] },
      { scopes: ['admin'] },
      { scopes: ['usage:read'], expiresInDays: 366 },
      { scopes: ['usage:read'], expiresInDays: 0 },
      { scopes: ['usage:read'], user: 'nobody' },
    ];
    for (const body of bad) {
      const reply = await send(sandbox(), 'POST', '/__sandbox/management-tokens', { body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('revokes a token and makes already-expired ones', async () => {
    const minted = await send(sandbox(), 'POST', '/__sandbox/management-tokens', {
      body: { scopes: ['usage:read'] },
    });
    const revoked = await send(sandbox(), 'DELETE', `/__sandbox/management-tokens/${minted.body.id}`);
    expect(revoked.body).toEqual({ id: minted.body.id, revoked: true });
    const usage = (token: string) =>
      send(sandbox(), 'GET', '/api/management/v1/subscription/usage', { headers: bearer(token) });
    expect((await usage(minted.body.token)).body.error.message).toMatch(/revoked/);
    const expired = await send(sandbox(), 'POST', '/__sandbox/management-tokens', {
      body: { scopes: ['usage:read'], expiresAt: Date.now() - 1000 },
    });
    expect((await usage(expired.body.token)).body.error.message).toMatch(/expired/);
    expect((await send(sandbox(), 'DELETE', '/__sandbox/management-tokens/mt_nope')).status).toBe(404);
  });

  it('expires an invitation on request', async () => {
    const res = await send(sandbox(), 'POST', `/__sandbox/invitations/${SANDBOX_INVITATIONS.pending}/expire`);
    expect(res.body).toEqual({ token: SANDBOX_INVITATIONS.pending, expired: true });
    const accept = await send(
      sandbox(),
      'POST',
      `/api/teams/invitations/${SANDBOX_INVITATIONS.pending}/accept`,
      {
        headers: { cookie: `orbit_session=${SANDBOX_PEOPLE.outsider.session}` },
      },
    );
    expect(accept.status).toBe(409);
  });

  it('changes a subscription plan and counters', async () => {
    const res = await send(sandbox(), 'PATCH', '/__sandbox/subscriptions/outsider', {
      body: { plan: 'grace', daily: { used: 5 } },
    });
    expect(res.body.state).toBe('grace');
    const usage = await send(sandbox(), 'GET', '/api/subscription/v1/usage', {
      headers: bearer(SANDBOX_PEOPLE.outsider.apiKey),
    });
    expect(usage.body).toMatchObject({ state: 'grace', daily: { used: 5 } });
    expect((await send(sandbox(), 'PATCH', '/__sandbox/subscriptions/nobody', { body: {} })).status).toBe(
      400,
    );
    expect(
      (await send(sandbox(), 'PATCH', '/__sandbox/subscriptions/demo', { body: { plan: 'gold' } })).status,
    ).toBe(400);
  });
});

describe('account controls in process (sandbox.state)', () => {
  const sandbox = useSandbox();

  it('mints tokens and adds people through the exported helpers', async () => {
    const person = createSandboxPerson(sandbox().state, { handle: 'bo', plan: 'degraded' });
    const token = createManagementToken(sandbox().state, {
      user: 'bo',
      scopes: ['usage:read', 'api_keys:write'],
    });
    const usage = await send(sandbox(), 'GET', '/api/management/v1/subscription/usage', {
      headers: bearer(token.secret),
    });
    expect(usage.body.degraded).toBe(true);
    const keys = await send(sandbox(), 'GET', '/api/management/v1/api-keys', {
      headers: bearer(token.secret),
    });
    expect(keys.body.data).toHaveLength(1);
    const teams = await send(sandbox(), 'GET', '/api/teams', {
      headers: { cookie: sessionCookie(person.session) },
    });
    expect(teams.status).toBe(200);
    expect(() =>
      createManagementToken(sandbox().state, { scopes: ['usage:read'], expiresInDays: 400 }),
    ).toThrow(/1\.\.365/);
  });
});
