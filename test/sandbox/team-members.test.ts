import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE, SANDBOX_TEAMS } from '../../src/sandbox/accounts/fixtures.js';
import { asSession, send } from './accounts-helpers.js';
import { useSandbox } from './helpers.js';

type Handle = 'demo' | 'admin' | 'member' | 'outsider';
const MAIN = SANDBOX_TEAMS.main;
const MEMBERS = `/api/teams/${MAIN.uuid}/members`;
const { demo, admin, member, outsider } = SANDBOX_PEOPLE;
const teamEnvelope = (status: number, code: string) => ({
  code,
  message: expect.any(String),
  details: null,
  status,
});

describe('team members list (spec 1 §2.8, §4.6)', () => {
  const sandbox = useSandbox();

  it('lists every member by default, oldest first, with the member fields', async () => {
    const res = await send(sandbox(), 'GET', MEMBERS, { headers: asSession('member') });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 3, total: 3, totalPages: 1 });
    expect(res.body.members.map((m: { sessionId: number }) => m.sessionId)).toEqual([1, 2, 3]);
    expect(res.body.members[2]).toEqual({
      sessionId: member.sessionId,
      sessionUUID: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/),
      role: 'member',
      joinedAt: expect.stringMatching(/Z$/),
      member_name: null,
      displayName: member.displayName,
      email: member.email,
      usage_limit_usd: 10,
      usage_limit_enforced: true,
      usage_usd_monthly: 1.75,
    });
  });

  it('pages with page and limit', async () => {
    const res = await send(sandbox(), 'GET', `${MEMBERS}?page=2&limit=2`, { headers: asSession('demo') });
    expect(res.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(res.body.members.map((m: { sessionId: number }) => m.sessionId)).toEqual([3]);
  });

  it('refuses limit over 100, page 0 and words (422), and non-members (403)', async () => {
    for (const query of ['limit=101', 'limit=0', 'page=0', 'page=two']) {
      const res = await send(sandbox(), 'GET', `${MEMBERS}?${query}`, { headers: asSession('demo') });
      expect(res.status, query).toBe(422);
      expect(res.body.code).toBe('INVALID_INPUT');
    }
    expect((await send(sandbox(), 'GET', MEMBERS, { headers: asSession('outsider') })).status).toBe(403);
  });
});

describe('member role and limit changes (spec 1 §4.6)', () => {
  const sandbox = useSandbox();
  const change = (handle: Handle, body: unknown) =>
    send(sandbox(), 'PATCH', MEMBERS, { headers: asSession(handle), body });
  const memberRow = async (sessionId: number) =>
    (await send(sandbox(), 'GET', MEMBERS, { headers: asSession('demo') })).body.members.find(
      (m: { sessionId: number }) => m.sessionId === sessionId,
    );

  it('lets an admin change a member role', async () => {
    expect((await change('admin', { sessionId: member.sessionId, role: 'admin' })).body).toEqual({
      ok: true,
    });
    expect((await memberRow(member.sessionId)).role).toBe('admin');
    await change('demo', { sessionId: member.sessionId, role: 'member' });
    expect((await memberRow(member.sessionId)).role).toBe('member');
  });

  it("answers 403 FORBIDDEN for any change of the owner's role", async () => {
    for (const handle of ['admin', 'demo'] as const) {
      const res = await change(handle, { sessionId: demo.sessionId, role: 'member' });
      expect(res.status, handle).toBe(403);
      expect(res.body).toEqual(teamEnvelope(403, 'FORBIDDEN'));
    }
  });

  it('answers 400 INVALID_INPUT when changing your own role', async () => {
    const res = await change('admin', { sessionId: admin.sessionId, role: 'member' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(teamEnvelope(400, 'INVALID_INPUT'));
  });

  it('refuses a plain member (403), unknown members (404) and bad bodies (422)', async () => {
    expect((await change('member', { sessionId: admin.sessionId, role: 'member' })).status).toBe(403);
    expect((await change('demo', { sessionId: outsider.sessionId, role: 'admin' })).body).toEqual(
      teamEnvelope(404, 'NOT_FOUND'),
    );
    const bad = [
      { sessionId: member.sessionId, role: 'owner' },
      { sessionId: member.sessionId },
      { role: 'admin' },
      { sessionId: member.sessionId, usage_limit_usd: -1 },
      { sessionId: member.sessionId, usage_limit_enforced: 'yes' },
    ];
    for (const body of bad) {
      const res = await change('demo', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('INVALID_INPUT');
    }
  });

  it('sets and clears a member usage limit', async () => {
    await change('admin', {
      sessionId: member.sessionId,
      usage_limit_usd: 15.5,
      usage_limit_enforced: false,
    });
    expect(await memberRow(member.sessionId)).toMatchObject({
      usage_limit_usd: 15.5,
      usage_limit_enforced: false,
    });
    await change('admin', { sessionId: member.sessionId, usage_limit_usd: null });
    const prefs = await send(sandbox(), 'GET', `${MEMBERS}/self`, { headers: asSession('member') });
    expect(prefs.body).toMatchObject({ usage_limit_usd: null, effective_usage_limit_usd: 20 });
  });

  it('lets an admin set the owner usage limit (only role changes are barred)', async () => {
    const res = await change('admin', { sessionId: demo.sessionId, usage_limit_usd: 100 });
    expect(res.body).toEqual({ ok: true });
  });
});

describe('member removal and leaving (spec 1 §4.6)', () => {
  const sandbox = useSandbox();
  const remove = (handle: Handle, body: unknown) =>
    send(sandbox(), 'DELETE', MEMBERS, { headers: asSession(handle), body });

  it('answers 403 for removing the owner, 400 for removing yourself, 404 for a non-member', async () => {
    expect((await remove('admin', { sessionId: demo.sessionId })).body).toEqual(
      teamEnvelope(403, 'FORBIDDEN'),
    );
    const self = await remove('admin', { sessionId: admin.sessionId });
    expect(self.status).toBe(400);
    expect(self.body).toEqual(teamEnvelope(400, 'INVALID_INPUT'));
    expect(self.body.message).toMatch(/leave/);
    expect((await remove('demo', { sessionId: outsider.sessionId })).status).toBe(404);
    expect((await remove('member', { sessionId: admin.sessionId })).status).toBe(403);
    expect((await remove('demo', {})).status).toBe(422);
  });

  it('answers 403 FORBIDDEN when the owner tries to leave', async () => {
    const res = await send(sandbox(), 'POST', `/api/teams/${MAIN.uuid}/leave`, {
      headers: asSession('demo'),
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/transfer ownership/);
  });

  it('lets a member leave; the team is then closed to them and no longer their default', async () => {
    await send(sandbox(), 'PATCH', '/api/user/default-team', {
      headers: asSession('member'),
      body: { team_uuid: MAIN.uuid },
    });
    const res = await send(sandbox(), 'POST', `/api/teams/${MAIN.uuid}/leave`, {
      headers: asSession('member'),
    });
    expect(res.body).toEqual({ ok: true });
    expect(
      (await send(sandbox(), 'GET', `/api/teams/${MAIN.uuid}`, { headers: asSession('member') })).status,
    ).toBe(403);
    const settings = await send(sandbox(), 'PATCH', '/api/user/default-team', {
      headers: asSession('member'),
      body: {},
    });
    expect(settings.body.metadata.default_team_uuid).toBeNull();
  });

  it('lets an admin remove another admin by sessionId in the query as well', async () => {
    const res = await send(sandbox(), 'DELETE', `${MEMBERS}?sessionId=${admin.sessionId}`, {
      headers: asSession('demo'),
    });
    expect(res.body).toEqual({ ok: true });
    const list = await send(sandbox(), 'GET', MEMBERS, { headers: asSession('demo') });
    expect(list.body.pagination.total).toBe(1);
  });
});

describe('own preferences (spec 1 §2.8, §4.6)', () => {
  const sandbox = useSandbox();
  const SELF = `${MEMBERS}/self`;

  it('shows the member override, the team default and what applies', async () => {
    const mine = await send(sandbox(), 'GET', SELF, { headers: asSession('member') });
    expect(mine.body).toEqual({
      bill_to_team: false,
      name: null,
      usage_limit_usd: 10,
      usage_limit_enforced: true,
      default_member_usage_limit_usd: 20,
      default_usage_limit_enforced: false,
      effective_usage_limit_usd: 10,
      effective_usage_limit_enforced: true,
    });
    const adminPrefs = await send(sandbox(), 'GET', SELF, { headers: asSession('admin') });
    expect(adminPrefs.body).toMatchObject({ usage_limit_usd: null, effective_usage_limit_usd: 20 });
  });

  it('updates bill_to_team and the member name', async () => {
    const res = await send(sandbox(), 'PATCH', SELF, {
      headers: asSession('member'),
      body: { bill_to_team: true, name: 'Max' },
    });
    expect(res.body).toEqual({
      ok: true,
      preferences: expect.objectContaining({ bill_to_team: true, name: 'Max' }),
    });
    const row = await send(sandbox(), 'GET', MEMBERS, { headers: asSession('demo') });
    expect(row.body.members[2].member_name).toBe('Max');
  });

  it('checks the name is 1..100 characters and something is sent (422)', async () => {
    for (const body of [{ name: '' }, { name: 'x'.repeat(101) }, {}, { bill_to_team: 'yes' }]) {
      const res = await send(sandbox(), 'PATCH', SELF, { headers: asSession('member'), body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const longest = await send(sandbox(), 'PATCH', SELF, {
      headers: asSession('member'),
      body: { name: 'x'.repeat(100) },
    });
    expect(longest.status).toBe(200);
  });

  it('answers 403 to a non-member', async () => {
    expect((await send(sandbox(), 'GET', SELF, { headers: asSession('outsider') })).status).toBe(403);
  });
});
