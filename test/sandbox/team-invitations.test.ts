import { describe, expect, it } from 'vitest';
import { SANDBOX_INVITATIONS as INV, SANDBOX_TEAMS } from '../../src/sandbox/accounts/fixtures.js';
import { asSession, send } from './accounts-helpers.js';
import { useSandbox } from './helpers.js';

const MAIN = SANDBOX_TEAMS.main;
const INVITATIONS = `/api/teams/${MAIN.uuid}/invitations`;
const NOW = Date.UTC(2025, 2, 12, 15, 30);
const DAY = 86_400_000;
const teamEnvelope = (status: number, code: string) => ({
  code,
  message: expect.any(String),
  details: null,
  status,
});

describe('team invitations (spec 1 §2.8, §3, §4.6)', () => {
  let now = NOW;
  const sandbox = useSandbox({ now: () => now });
  const invite = (body: unknown, handle: 'demo' | 'admin' | 'member' = 'admin') =>
    send(sandbox(), 'POST', INVITATIONS, { headers: asSession(handle), body });
  const accept = (token: string, handle: 'outsider' | 'trial' | 'member' = 'outsider') =>
    send(sandbox(), 'POST', `/api/teams/invitations/${token}/accept`, { headers: asSession(handle) });

  it('lists invitations of every status to owners and admins, not members', async () => {
    const res = await send(sandbox(), 'GET', INVITATIONS, { headers: asSession('admin') });
    expect(res.status).toBe(200);
    const byToken = Object.fromEntries(
      res.body.invitations.map((i: { token: string; status: string }) => [i.token, i.status]),
    );
    expect(byToken).toEqual({
      [INV.pending]: 'pending',
      [INV.expired]: 'expired',
      [INV.accepted]: 'accepted',
      [INV.revoked]: 'revoked',
    });
    expect((await send(sandbox(), 'GET', INVITATIONS, { headers: asSession('member') })).body).toEqual(
      teamEnvelope(403, 'FORBIDDEN'),
    );
  });

  it('creates a pending invitation, role member by default, expiring in 7 days', async () => {
    const res = await invite({ email: 'ana@example.com' });
    expect(res.status).toBe(201);
    expect(res.body.invitation).toEqual({
      id: expect.any(Number),
      email: 'ana@example.com',
      role: 'member',
      status: 'pending',
      token: expect.stringMatching(/^inv-orbit-sbx-\d{6}$/),
      created_at: new Date(NOW).toISOString(),
      expires_at: new Date(NOW + 7 * DAY).toISOString(),
    });
    expect((await invite({ email: 'ana2@example.com', role: 'admin' }, 'demo')).body.invitation.role).toBe(
      'admin',
    );
  });

  it('checks the email and role (422) and the caller role (403)', async () => {
    for (const body of [{}, { email: 'not-an-email' }, { email: 'a@b.co', role: 'owner' }]) {
      const res = await invite(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('INVALID_INPUT');
    }
    expect((await invite({ email: 'a@b.co' }, 'member')).status).toBe(403);
  });

  it('shows an invitation publicly by token', async () => {
    const res = await send(sandbox(), 'GET', `/api/teams/invitations/${INV.pending}`);
    expect(res.status).toBe(200);
    expect(res.body.invitation).toMatchObject({
      team: { uuid: MAIN.uuid, name: MAIN.name },
      role: 'admin',
      status: 'pending',
    });
    expect((await send(sandbox(), 'GET', '/api/teams/invitations/inv-nope')).body).toEqual(
      teamEnvelope(404, 'NOT_FOUND'),
    );
  });

  it('accepts a pending invitation once; the accepter joins with its role', async () => {
    const res = await accept(INV.pending);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      team: { uuid: MAIN.uuid, name: MAIN.name, status: 'active', role: 'admin' },
    });
    const again = await accept(INV.pending, 'trial');
    expect(again.status).toBe(409);
    expect(again.body).toEqual(teamEnvelope(409, 'CONFLICT'));
    const team = await send(sandbox(), 'GET', `/api/teams/${MAIN.uuid}`, { headers: asSession('outsider') });
    expect(team.body.team.role).toBe('admin');
  });

  it('answers 409 CONFLICT for expired, accepted and revoked invitations', async () => {
    for (const token of [INV.expired, INV.accepted, INV.revoked]) {
      const res = await accept(token, 'trial');
      expect(res.status, token).toBe(409);
      expect(res.body.code).toBe('CONFLICT');
    }
  });

  it('answers 409 when the accepter is already a member, and 401 without a session', async () => {
    const created = await invite({ email: 'member@sandbox.invalid' });
    expect((await accept(created.body.invitation.token, 'member')).status).toBe(409);
    const anonymous = await send(
      sandbox(),
      'POST',
      `/api/teams/invitations/${created.body.invitation.token}/accept`,
    );
    expect(anonymous.body).toEqual(teamEnvelope(401, 'UNAUTHORIZED'));
  });

  it('expires an invitation after 7 days', async () => {
    const created = await invite({ email: 'late@example.com' });
    now += 7 * DAY;
    expect((await accept(created.body.invitation.token, 'trial')).status).toBe(409);
    const list = await send(sandbox(), 'GET', INVITATIONS, { headers: asSession('admin') });
    const found = list.body.invitations.find(
      (i: { token: string }) => i.token === created.body.invitation.token,
    );
    expect(found.status).toBe('expired');
    now = NOW;
  });

  it('revokes a pending invitation by id or token; revoking again is a 409', async () => {
    const byId = (await invite({ email: 'r1@example.com' })).body.invitation;
    const byToken = (await invite({ email: 'r2@example.com' })).body.invitation;
    const revoke = (body: unknown, handle: 'admin' | 'member' = 'admin') =>
      send(sandbox(), 'PATCH', INVITATIONS, { headers: asSession(handle), body });
    // The result says only ok (the platform's reference shows no invitation in it, issue 32).
    const first = await revoke({ action: 'revoke', id: byId.id });
    expect(first.body).toEqual({ ok: true });
    expect((await revoke({ action: 'revoke', token: byToken.token })).body).toEqual({ ok: true });
    const listed = (await send(sandbox(), 'GET', INVITATIONS, { headers: asSession('admin') })).body
      .invitations;
    for (const revoked of [byId, byToken])
      expect(listed.find((i: { id: unknown }) => i.id === revoked.id)?.status).toBe('revoked');
    expect((await revoke({ action: 'revoke', id: byId.id })).status).toBe(409);
    expect((await accept(byId.token, 'trial')).status).toBe(409);
    expect((await revoke({ action: 'revoke', id: 999_999 })).status).toBe(404);
    expect((await revoke({ action: 'delete', id: byId.id })).status).toBe(422);
    expect((await revoke({ action: 'revoke' })).status).toBe(422);
    expect((await revoke({ action: 'revoke', id: byId.id }, 'member')).status).toBe(403);
  });
});

describe('invite link and its emails (spec 1 §4.6, §8)', () => {
  let now = NOW;
  const sandbox = useSandbox({ now: () => now });
  const link = (team: string, action: string, handle: 'demo' | 'admin' | 'member' = 'demo') =>
    send(sandbox(), 'PATCH', `/api/teams/${team}/invite-link`, {
      headers: asSession(handle),
      body: { action },
    });
  const email = (emails: string[], team = MAIN.uuid) =>
    send(sandbox(), 'POST', `/api/teams/${team}/invite-link/emails`, {
      headers: asSession('admin'),
      body: { emails },
    });
  const addresses = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}@example.com`);

  it('shows an enabled link publicly and refuses a disabled one (403)', async () => {
    const open = await send(sandbox(), 'GET', `/api/teams/invite-link/${MAIN.inviteLinkToken}`);
    expect(open.body).toEqual({ team: { uuid: MAIN.uuid, name: MAIN.name }, invite_link_enabled: true });
    const closed = await send(
      sandbox(),
      'GET',
      `/api/teams/invite-link/${SANDBOX_TEAMS.lab.inviteLinkToken}`,
    );
    expect(closed.body).toEqual(teamEnvelope(403, 'FORBIDDEN'));
    expect((await send(sandbox(), 'GET', '/api/teams/invite-link/link-nope')).status).toBe(404);
  });

  it('sends at most 5 emails per minute per team, then 429 RATE_LIMITED with Retry-After', async () => {
    expect((await email(addresses(3, 'a'))).body).toEqual({ ok: true, sent: 3 });
    now += 10_000;
    const over = await email(addresses(3, 'b'));
    expect(over.status).toBe(429);
    expect(over.body).toEqual(teamEnvelope(429, 'RATE_LIMITED'));
    expect(over.headers.get('retry-after')).toBe('50');
    expect((await email(addresses(2, 'c'))).body.sent).toBe(2);
    expect((await email(addresses(1, 'd'))).status).toBe(429);
    now += 50_000;
    expect((await email(addresses(3, 'e'))).status).toBe(200);
    now = NOW + 3_600_000;
  });

  it('checks the addresses (422), the role (403) and refuses while the link is disabled (403)', async () => {
    expect((await email(addresses(6, 'f'))).status).toBe(422);
    expect((await email(['nope'])).status).toBe(422);
    expect((await email([])).status).toBe(422);
    const byMember = await send(sandbox(), 'POST', `/api/teams/${MAIN.uuid}/invite-link/emails`, {
      headers: asSession('member'),
      body: { emails: ['x@example.com'] },
    });
    expect(byMember.status).toBe(403);
    const disabled = await email(['x@example.com'], SANDBOX_TEAMS.lab.uuid);
    expect(disabled.status).toBe(403);
    expect(disabled.body.message).toMatch(/disabled/);
  });

  it('enables, disables and regenerates the link (owner or admin)', async () => {
    expect((await link(MAIN.uuid, 'enable', 'member')).status).toBe(403);
    const disabled = await link(MAIN.uuid, 'disable', 'admin');
    expect(disabled.body).toEqual({ ok: true, invite_link_enabled: false, invite_link_token: null });
    const enabled = await link(MAIN.uuid, 'enable');
    expect(enabled.body).toEqual({
      ok: true,
      invite_link_enabled: true,
      invite_link_token: MAIN.inviteLinkToken,
    });
    const fresh = await link(MAIN.uuid, 'regenerate');
    expect(fresh.body.invite_link_token).not.toBe(MAIN.inviteLinkToken);
    expect((await send(sandbox(), 'GET', `/api/teams/invite-link/${MAIN.inviteLinkToken}`)).status).toBe(404);
    expect(
      (await send(sandbox(), 'GET', `/api/teams/invite-link/${fresh.body.invite_link_token}`)).status,
    ).toBe(200);
    expect((await link(MAIN.uuid, 'open')).status).toBe(422);
  });
});

describe('join requests through the invite link (spec 1 §4.6)', () => {
  const sandbox = useSandbox();
  const requestToJoin = (handle: 'outsider' | 'trial' | 'member') =>
    send(sandbox(), 'POST', `/api/teams/invite-link/${MAIN.inviteLinkToken}/join-requests`, {
      headers: asSession(handle),
    });
  const decide = (body: unknown, handle: 'demo' | 'member' = 'demo') =>
    send(sandbox(), 'PATCH', `/api/teams/${MAIN.uuid}/join-requests`, { headers: asSession(handle), body });
  const purge = (id: number) =>
    send(sandbox(), 'DELETE', `/api/teams/${MAIN.uuid}/join-requests`, {
      headers: asSession('admin'),
      body: { id },
    });

  it('takes one pending request per person; members cannot ask', async () => {
    const res = await requestToJoin('outsider');
    expect(res.status).toBe(201);
    expect(res.body.join_request).toMatchObject({
      sessionId: 4,
      status: 'pending',
      email: 'outsider@sandbox.invalid',
    });
    expect((await requestToJoin('outsider')).status).toBe(409);
    expect((await requestToJoin('member')).body).toEqual(teamEnvelope(409, 'CONFLICT'));
    const closed = await send(
      sandbox(),
      'POST',
      `/api/teams/invite-link/${SANDBOX_TEAMS.lab.inviteLinkToken}/join-requests`,
      {
        headers: asSession('outsider'),
      },
    );
    expect(closed.status).toBe(403);
  });

  it('lists requests to owners and admins; accepting adds the member', async () => {
    const list = await send(sandbox(), 'GET', `/api/teams/${MAIN.uuid}/join-requests`, {
      headers: asSession('admin'),
    });
    const [request] = list.body.join_requests;
    expect(request).toMatchObject({ sessionId: 4, status: 'pending' });
    expect(
      (
        await send(sandbox(), 'GET', `/api/teams/${MAIN.uuid}/join-requests`, {
          headers: asSession('member'),
        })
      ).status,
    ).toBe(403);
    expect((await purge(request.id)).body).toEqual(teamEnvelope(409, 'CONFLICT'));
    expect((await decide({ id: request.id, action: 'accept' }, 'member')).status).toBe(403);
    const accepted = await decide({ id: request.id, action: 'accept' });
    expect(accepted.body.join_request.status).toBe('accepted');
    const team = await send(sandbox(), 'GET', `/api/teams/${MAIN.uuid}`, { headers: asSession('outsider') });
    expect(team.body.team.role).toBe('member');
    expect((await decide({ id: request.id, action: 'reject' })).status).toBe(409);
    expect((await purge(request.id)).body).toEqual({ ok: true });
    expect((await purge(request.id)).status).toBe(404);
  });

  it('rejects and cancels; only the requester cancels, and only while pending', async () => {
    const rejected = (await requestToJoin('trial')).body.join_request;
    expect((await decide({ id: rejected.id, action: 'reject' })).body.join_request.status).toBe('rejected');
    expect((await decide({ id: rejected.id, action: 'maybe' })).status).toBe(422);
    const pending = (await requestToJoin('trial')).body.join_request;
    const cancel = (handle: 'trial' | 'outsider') =>
      send(sandbox(), 'DELETE', `/api/teams/join-requests/${pending.id}`, { headers: asSession(handle) });
    expect((await cancel('outsider')).status).toBe(404);
    expect((await cancel('trial')).body).toEqual({ ok: true });
    expect((await cancel('trial')).status).toBe(409);
  });
});
