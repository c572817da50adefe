import { describe, expect, it } from 'vitest';
import {
  SANDBOX_MANAGEMENT_TOKENS,
  SANDBOX_PEOPLE,
  SANDBOX_TEAMS,
} from '../../src/sandbox/accounts/fixtures.js';
import { asSession, bearer, send } from './accounts-helpers.js';
import { useSandbox } from './helpers.js';

const MAIN = SANDBOX_TEAMS.main;
const LAB = SANDBOX_TEAMS.lab;
const teamEnvelope = (status: number, code: string) => ({
  code,
  message: expect.any(String),
  details: null,
  status,
});

describe('team API auth (spec 1 §4.6, §5, §7.1 envelope 6)', () => {
  const sandbox = useSandbox();

  it('answers 401 UNAUTHORIZED in the team envelope without a session', async () => {
    const res = await send(sandbox(), 'GET', '/api/teams');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(teamEnvelope(401, 'UNAUTHORIZED'));
  });

  it('refuses an API key, saying a session is needed', async () => {
    const res = await send(sandbox(), 'GET', '/api/teams', { headers: bearer(SANDBOX_PEOPLE.demo.apiKey) });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/session/);
  });

  it('refuses a management token: it cannot stand in for a browser session', async () => {
    const res = await send(sandbox(), 'GET', '/api/teams', {
      headers: bearer(SANDBOX_MANAGEMENT_TOKENS.all),
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(teamEnvelope(401, 'UNAUTHORIZED'));
  });

  it('refuses an unknown session cookie', async () => {
    const res = await send(sandbox(), 'GET', '/api/teams', { headers: { cookie: 'orbit_session=nope' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('gives faults on team routes a team code', async () => {
    await send(sandbox(), 'POST', '/__sandbox/faults', {
      body: { match: { path: '/api/teams' }, status: 429, retryAfterSeconds: 3 },
    });
    const res = await send(sandbox(), 'GET', '/api/teams', { headers: asSession('demo') });
    expect(res.status).toBe(429);
    expect(res.body).toEqual(teamEnvelope(429, 'RATE_LIMITED'));
    expect(res.headers.get('retry-after')).toBe('3');
  });
});

describe('teams (spec 1 §2.8, §4.6)', () => {
  const sandbox = useSandbox();

  it('lists each person teams with their role', async () => {
    const expectations = {
      demo: [
        { uuid: MAIN.uuid, name: MAIN.name, status: 'active', role: 'owner' },
        { uuid: LAB.uuid, name: LAB.name, status: 'active', role: 'member' },
      ],
      admin: [
        { uuid: MAIN.uuid, name: MAIN.name, status: 'active', role: 'admin' },
        { uuid: LAB.uuid, name: LAB.name, status: 'active', role: 'owner' },
      ],
      member: [{ uuid: MAIN.uuid, name: MAIN.name, status: 'active', role: 'member' }],
      outsider: [],
    } as const;
    for (const [handle, teams] of Object.entries(expectations)) {
      const res = await send(sandbox(), 'GET', '/api/teams', { headers: asSession(handle as 'demo') });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ teams });
    }
  });

  it('shows details by UUID or numeric id, with the requester role and the owner balances', async () => {
    const byUuid = await send(sandbox(), 'GET', `/api/teams/${MAIN.uuid}`, { headers: asSession('member') });
    const byId = await send(sandbox(), 'GET', `/api/teams/${MAIN.id}`, { headers: asSession('member') });
    expect(byUuid.status).toBe(200);
    expect(byId.body).toEqual(byUuid.body);
    expect(byUuid.body.team).toEqual({
      id: MAIN.id,
      uuid: MAIN.uuid,
      name: MAIN.name,
      status: 'active',
      paused_at: null,
      suspended_at: null,
      invite_link_enabled: true,
      invite_link_token: MAIN.inviteLinkToken,
      default_member_usage_limit_usd: 20,
      usage_limit_usd: null,
      responses_retention_days: null,
      usage_limit_enforced: false,
      high_spend_text_discount: false,
      balances: { usd_balance: SANDBOX_PEOPLE.demo.balanceUsd, crypto_balance: 0 },
      role: 'member',
    });
  });

  it('answers 403 to a non-member and 404 for an unknown team', async () => {
    const outsider = await send(sandbox(), 'GET', `/api/teams/${MAIN.uuid}`, {
      headers: asSession('outsider'),
    });
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual(teamEnvelope(403, 'FORBIDDEN'));
    const unknown = await send(sandbox(), 'GET', '/api/teams/999', { headers: asSession('demo') });
    expect(unknown.body).toEqual(teamEnvelope(404, 'NOT_FOUND'));
  });

  it('creates a team with the caller as owner', async () => {
    const res = await send(sandbox(), 'POST', '/api/teams', {
      headers: asSession('outsider'),
      body: { name: 'Night_Shift-2' },
    });
    expect(res.status).toBe(201);
    expect(res.body.team).toMatchObject({ name: 'Night_Shift-2', role: 'owner', status: 'active' });
    const list = await send(sandbox(), 'GET', '/api/teams', { headers: asSession('outsider') });
    expect(list.body.teams).toEqual([expect.objectContaining({ uuid: res.body.team.uuid, role: 'owner' })]);
  });

  it('checks team names: 2..50 letters, digits, spaces, hyphens, underscores (422 INVALID_INPUT)', async () => {
    for (const name of ['A', 'x'.repeat(51), 'Team!', 'a/b', '', 42]) {
      const res = await send(sandbox(), 'POST', '/api/teams', {
        headers: asSession('outsider'),
        body: { name },
      });
      expect(res.status, String(name)).toBe(422);
      expect(res.body).toEqual(teamEnvelope(422, 'INVALID_INPUT'));
    }
    const edge = await send(sandbox(), 'POST', '/api/teams', {
      headers: asSession('trial'),
      body: { name: 'Équipe 50'.padEnd(50, 'z') },
    });
    expect(edge.status).toBe(201);
  });

  it('answers 409 CONFLICT when the caller already has a team of that name', async () => {
    const res = await send(sandbox(), 'POST', '/api/teams', {
      headers: asSession('demo'),
      body: { name: 'sandbox team' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(teamEnvelope(409, 'CONFLICT'));
    const other = await send(sandbox(), 'POST', '/api/teams', {
      headers: asSession('member'),
      body: { name: MAIN.name },
    });
    expect(other.status).toBe(201);
  });

  it('answers 400 INVALID_INPUT for a body that is not a JSON object', async () => {
    const res = await send(sandbox(), 'POST', '/api/teams', { headers: asSession('demo'), body: '[1]' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
  });
});

describe('team rename, status and delete (spec 1 §3, §4.6)', () => {
  const sandbox = useSandbox();
  const patch = (handle: 'demo' | 'admin' | 'member', body: unknown) =>
    send(sandbox(), 'PATCH', `/api/teams/${MAIN.uuid}`, { headers: asSession(handle), body });

  it('lets an admin rename and change the status; stamps paused_at and suspended_at', async () => {
    const renamed = await patch('admin', { name: 'Orbit Crew' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.team).toMatchObject({ name: 'Orbit Crew', role: 'admin' });
    const paused = await patch('admin', { status: 'paused' });
    expect(paused.body.team).toMatchObject({
      status: 'paused',
      paused_at: expect.any(String),
      suspended_at: null,
    });
    const suspended = await patch('demo', { status: 'suspended' });
    expect(suspended.body.team).toMatchObject({
      status: 'suspended',
      paused_at: null,
      suspended_at: expect.any(String),
    });
    const active = await patch('demo', { status: 'active', name: MAIN.name });
    expect(active.body.team).toMatchObject({
      status: 'active',
      paused_at: null,
      suspended_at: null,
      name: MAIN.name,
    });
  });

  it('refuses a member (403) and bad bodies (422)', async () => {
    expect((await patch('member', { name: 'Mine now' })).body).toEqual(teamEnvelope(403, 'FORBIDDEN'));
    for (const body of [{}, { status: 'closed' }, { name: 'x' }, { colour: 'red' }]) {
      const res = await patch('admin', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('INVALID_INPUT');
    }
  });

  it('deletes only for the owner and only with the exact team name', async () => {
    const url = `/api/teams/${LAB.uuid}`;
    const byMember = await send(sandbox(), 'DELETE', url, {
      headers: asSession('demo'),
      body: { name: LAB.name },
    });
    expect(byMember.status).toBe(403);
    for (const body of [undefined, {}, { name: 'research lab' }]) {
      const res = await send(sandbox(), 'DELETE', url, { headers: asSession('admin'), body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('INVALID_INPUT');
    }
    await send(sandbox(), 'PATCH', '/api/user/default-team', {
      headers: asSession('demo'),
      body: { team_uuid: LAB.uuid },
    });
    const ok = await send(sandbox(), 'DELETE', url, {
      headers: asSession('admin'),
      body: { name: LAB.name },
    });
    expect(ok.body).toEqual({ ok: true });
    expect((await send(sandbox(), 'GET', url, { headers: asSession('admin') })).status).toBe(404);
    const cleared = await send(sandbox(), 'PATCH', '/api/user/default-team', {
      headers: asSession('demo'),
      body: {},
    });
    expect(cleared.body.metadata.default_team_uuid).toBeNull();
  });
});

describe('ownership transfer (spec 1 §3, §4.6)', () => {
  const sandbox = useSandbox();
  const transfer = (handle: 'demo' | 'admin', sessionId: unknown) =>
    send(sandbox(), 'POST', `/api/teams/${MAIN.uuid}/transfer-ownership`, {
      headers: asSession(handle),
      body: { sessionId },
    });

  it('is for the owner only, never to yourself, and only to a member', async () => {
    expect((await transfer('admin', SANDBOX_PEOPLE.admin.sessionId)).body).toEqual(
      teamEnvelope(403, 'FORBIDDEN'),
    );
    const self = await transfer('demo', SANDBOX_PEOPLE.demo.sessionId);
    expect(self.status).toBe(400);
    expect(self.body).toEqual(teamEnvelope(400, 'INVALID_INPUT'));
    expect((await transfer('demo', SANDBOX_PEOPLE.outsider.sessionId)).status).toBe(404);
    expect((await transfer('demo', 'two')).status).toBe(422);
  });

  it('makes the target owner and the old owner admin', async () => {
    expect((await transfer('demo', String(SANDBOX_PEOPLE.member.sessionId))).body).toEqual({ ok: true });
    const roles = await send(sandbox(), 'GET', `/api/teams/${MAIN.uuid}/members`, {
      headers: asSession('demo'),
    });
    const byId = Object.fromEntries(
      roles.body.members.map((m: { sessionId: number; role: string }) => [m.sessionId, m.role]),
    );
    expect(byId).toEqual({ 1: 'admin', 2: 'admin', 3: 'owner' });
    const del = await send(sandbox(), 'DELETE', `/api/teams/${MAIN.uuid}`, {
      headers: asSession('demo'),
      body: { name: MAIN.name },
    });
    expect(del.status).toBe(403);
  });
});
