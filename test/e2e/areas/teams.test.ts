import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PEOPLE as P,
  SANDBOX_TEAMS,
  type Sandbox,
  startSandbox,
} from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { type Harness, type HarnessOptions, out, startHarness, textOf } from '../../helpers/harness.js';

const MAIN = SANDBOX_TEAMS.main;
const LAB = SANDBOX_TEAMS.lab;
type Handle = keyof typeof P;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

/** A server signed in as one of the sandbox people, with the bare session value as a person would paste it. */
async function as<T>(handle: Handle, run: (h: Harness) => Promise<T>, options: HarnessOptions = {}) {
  const h = await startHarness({
    credentials: credentials({ session: P[handle].session }),
    sharedSandbox: sandbox,
    ...options,
    config: { toolsets: 'teams', ...options.config },
  });
  try {
    return await run(h);
  } finally {
    await h.close();
  }
}
const call = (handle: Handle, tool: string, args: Record<string, unknown>, options: HarnessOptions = {}) =>
  as(handle, (h) => h.call(tool, args), options);
const accept: HarnessOptions = { answerForm: () => ({ action: 'accept', content: { confirm: true } }) };
const decline: HarnessOptions = { answerForm: () => ({ action: 'decline' }) };
const sent = (method: string, path: string) =>
  sandbox.requests.filter((r) => r.method === method && r.path === path);
const members = async (team: string) =>
  out(await call('demo', 'teams_read', { operation: 'members', team })).data.members as {
    sessionId: number;
    role: string;
  }[];

describe('teams_read', () => {
  it('lists your teams with the session cookie the platform reads', async () => {
    sandbox.clearRequests();
    const result = await call('demo', 'teams_read', { operation: 'list' });
    expect(result.isError).toBeFalsy();
    expect(out(result).data).toEqual([
      { uuid: MAIN.uuid, name: MAIN.name, status: 'active', role: 'owner' },
      { uuid: LAB.uuid, name: LAB.name, status: 'active', role: 'member' },
    ]);
    expect(sandbox.requests[0]?.headers.cookie).toBe(`orbit_session=${P.demo.session}`);
    expect(sandbox.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('finds a team by name, and shows its details, members, own preferences and invitations', async () => {
    sandbox.clearRequests();
    const details = out(await call('demo', 'teams_read', { operation: 'get', team: 'sandbox team' })).data;
    expect(details).toMatchObject({
      uuid: MAIN.uuid,
      role: 'owner',
      balances: { usd_balance: expect.any(Number) },
    });
    expect(sandbox.requests.map((r) => r.path)).toEqual(['/api/teams', `/api/teams/${MAIN.uuid}`]);
    const page = out(
      await call('demo', 'teams_read', { operation: 'members', team: MAIN.uuid, limit: 2 }),
    ).data;
    expect(page.members).toHaveLength(2);
    expect(page.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    const self = out(await call('member', 'teams_read', { operation: 'self', team: String(MAIN.id) })).data;
    expect(self).toMatchObject({ bill_to_team: expect.any(Boolean) });
    const invitations = out(
      await call('demo', 'teams_read', { operation: 'invitations', team: MAIN.uuid }),
    ).data;
    expect(invitations.map((i: { status: string }) => i.status).sort()).toEqual([
      'accepted',
      'expired',
      'pending',
      'revoked',
    ]);
  });

  it('passes on a role refusal from the platform in the team envelope', async () => {
    const result = await call('member', 'teams_read', { operation: 'invitations', team: MAIN.uuid });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /forbidden, HTTP 403\): This needs the owner or admin role; you are member[\s\S]*FORBIDDEN/,
    );
  });

  it('checks the page size and the team before sending', async () => {
    sandbox.clearRequests();
    const big = await call('demo', 'teams_read', { operation: 'members', team: MAIN.uuid, limit: 101 });
    expect(textOf(big)).toMatch(/`limit` must be a whole number from 1 to 100/);
    const none = await call('demo', 'teams_read', { operation: 'get' });
    expect(textOf(none)).toMatch(/needs `team`/);
    expect(sandbox.requests).toHaveLength(0);
    const unknown = await call('demo', 'teams_read', { operation: 'get', team: 'Nope' });
    expect(textOf(unknown)).toMatch(/no team named "Nope"[\s\S]*Sandbox Team \(7ea3/);
  });

  it('names the session it lacks, and says a key is no session', async () => {
    const bare = await startHarness({
      credentials: [],
      sharedSandbox: sandbox,
      config: { toolsets: 'teams' },
    });
    try {
      const result = await bare.call('teams_read', { operation: 'list' });
      expect(textOf(result)).toMatch(
        /missing_credential[\s\S]*`orbit_session` cookie[\s\S]*ORBIT_SESSION[\s\S]*login --session/,
      );
    } finally {
      await bare.close();
    }
    const ended = await startHarness({
      credentials: credentials({ session: 'sess-orbit-ended' }),
      sharedSandbox: sandbox,
      config: { toolsets: 'teams' },
    });
    try {
      const result = await ended.call('teams_read', { operation: 'list' });
      expect(textOf(result)).toMatch(
        /unauthorized, HTTP 401[\s\S]*signed-in session, never an API key or management token/,
      );
    } finally {
      await ended.close();
    }
  });
});

describe('teams_write: teams', () => {
  it('creates a team, and refuses a second of the same name (409) or a bad name before sending', async () => {
    const created = out(
      await call('outsider', 'teams_write', { operation: 'create', name: 'Ops Team' }),
    ).data;
    expect(created).toMatchObject({ name: 'Ops Team', role: 'owner', status: 'active' });
    const again = await call('outsider', 'teams_write', { operation: 'create', name: 'ops team' });
    expect(textOf(again)).toMatch(/conflict, HTTP 409[\s\S]*CONFLICT/);
    sandbox.clearRequests();
    for (const name of ['x', 'a/b', 'x'.repeat(51)]) {
      const bad = await call('outsider', 'teams_write', { operation: 'create', name });
      expect(textOf(bad)).toMatch(/invalid_input\): `name` for "create": 2 to 50 letters/);
    }
    expect(sandbox.requests).toHaveLength(0);
  });

  it('renames, and pauses only once the person confirms', async () => {
    const team = out(await call('outsider', 'teams_write', { operation: 'create', name: 'Pause Me' })).data
      .uuid;
    const renamed = await call('outsider', 'teams_write', { operation: 'update', team, name: 'Paused Team' });
    expect(out(renamed).data).toMatchObject({ name: 'Paused Team' });

    sandbox.clearRequests();
    const refused = await as(
      'outsider',
      (h) => h.call('teams_write', { operation: 'update', team, status: 'paused' }),
      decline,
    );
    expect(textOf(refused)).toMatch(/aborted\): The person declined the confirmation; nothing was changed/);
    expect(sent('PATCH', `/api/teams/${team}`)).toHaveLength(0);

    let asked: string[] = [];
    const paused = await as(
      'outsider',
      async (h) => {
        asked = h.elicited;
        return h.call('teams_write', { operation: 'update', team, status: 'paused' });
      },
      accept,
    );
    expect(asked[0]).toMatch(/Set the team "Paused Team" from active to paused\?/);
    expect(out(paused).data).toMatchObject({ status: 'paused', paused_at: expect.any(String) });

    // Back to active asks nothing.
    const active = await as(
      'outsider',
      async (h) => {
        const result = await h.call('teams_write', { operation: 'update', team, status: 'active' });
        expect(h.elicited).toHaveLength(0);
        return result;
      },
      accept,
    );
    expect(out(active).data.status).toBe('active');
  });

  it('suspends by a confirm argument equal to the team name when the client cannot ask', async () => {
    const team = out(await call('outsider', 'teams_write', { operation: 'create', name: 'Suspend Me' })).data
      .uuid;
    const missing = await call('outsider', 'teams_write', { operation: 'update', team, status: 'suspended' });
    expect(textOf(missing)).toMatch(/needs confirmation[\s\S]*confirm: "Suspend Me" \(the team name\)/);
    const done = await call('outsider', 'teams_write', {
      operation: 'update',
      team,
      status: 'suspended',
      confirm: 'Suspend Me',
    });
    expect(out(done).data.status).toBe('suspended');
  });

  it('deletes a team only for its owner, once confirmed, sending the name as the platform asks', async () => {
    const team = out(await call('outsider', 'teams_write', { operation: 'create', name: 'Delete Me' })).data
      .uuid;
    sandbox.clearRequests();
    const declined = await call('outsider', 'teams_write', { operation: 'delete', team }, decline);
    expect(declined.isError).toBe(true);
    expect(sent('DELETE', `/api/teams/${team}`)).toHaveLength(0);
    const done = await call('outsider', 'teams_write', { operation: 'delete', team }, accept);
    expect(out(done).data).toEqual({ deleted: team, name: 'Delete Me' });
    expect(sent('DELETE', `/api/teams/${team}`)[0]?.json).toEqual({ name: 'Delete Me' });
    const gone = await call('outsider', 'teams_read', { operation: 'get', team });
    expect(textOf(gone)).toMatch(/not_found, HTTP 404/);
  });

  it('refuses a delete by an admin before sending', async () => {
    sandbox.clearRequests();
    const result = await call('admin', 'teams_write', {
      operation: 'delete',
      team: MAIN.uuid,
      confirm: MAIN.name,
    });
    expect(textOf(result)).toMatch(
      /forbidden\): Deleting a team needs the owner role in "Sandbox Team"; you are admin\. Nothing was sent/,
    );
    expect(sent('DELETE', `/api/teams/${MAIN.uuid}`)).toHaveLength(0);
  });
});

describe('teams_write: members', () => {
  it("changes a member's role and limit", async () => {
    sandbox.clearRequests();
    const result = await call('demo', 'teams_write', {
      operation: 'member_update',
      team: MAIN.uuid,
      session_id: P.member.sessionId,
      usage_limit_usd: 5,
      usage_limit_enforced: true,
    });
    expect(out(result).data).toEqual({
      team: MAIN.uuid,
      sessionId: 3,
      usage_limit_usd: 5,
      usage_limit_enforced: true,
    });
    expect(sent('PATCH', `/api/teams/${MAIN.uuid}/members`)[0]?.json).toEqual({
      sessionId: 3,
      usage_limit_usd: 5,
      usage_limit_enforced: true,
    });
    await call('demo', 'teams_write', {
      operation: 'member_update',
      team: MAIN.uuid,
      session_id: 3,
      role: 'admin',
    });
    expect((await members(MAIN.uuid)).find((m) => m.sessionId === 3)?.role).toBe('admin');
    await call('demo', 'teams_write', {
      operation: 'member_update',
      team: MAIN.uuid,
      session_id: 3,
      role: 'member',
    });
  });

  it("refuses before sending what the roles forbid: the owner's role, or a member changing anyone", async () => {
    sandbox.clearRequests();
    const owner = await call('admin', 'teams_write', {
      operation: 'member_update',
      team: MAIN.uuid,
      session_id: 1,
      role: 'member',
    });
    expect(textOf(owner)).toMatch(
      /forbidden\): Changing the role of the owner of "Sandbox Team" is not allowed/,
    );
    const byMember = await call('member', 'teams_write', {
      operation: 'member_update',
      team: MAIN.uuid,
      session_id: 2,
      role: 'member',
    });
    expect(textOf(byMember)).toMatch(/needs the owner or admin role in "Sandbox Team"; you are member/);
    const negative = await call('demo', 'teams_write', {
      operation: 'member_update',
      team: MAIN.uuid,
      session_id: 3,
      usage_limit_usd: -1,
    });
    expect(textOf(negative)).toMatch(/`usage_limit_usd` cannot be negative/);
    const stranger = await call('demo', 'teams_write', {
      operation: 'member_update',
      team: MAIN.uuid,
      session_id: 99,
      role: 'admin',
    });
    expect(textOf(stranger)).toMatch(/Session 99 is not a member of "Sandbox Team"/);
    expect(sent('PATCH', `/api/teams/${MAIN.uuid}/members`)).toHaveLength(0);
  });

  it("passes on the platform's refusal of a self role change (400)", async () => {
    const result = await call('admin', 'teams_write', {
      operation: 'member_update',
      team: MAIN.uuid,
      session_id: 2,
      role: 'member',
    });
    expect(textOf(result)).toMatch(
      /bad_request, HTTP 400\): You cannot change your own role[\s\S]*INVALID_INPUT/,
    );
  });

  it('removes a member only once confirmed; a refusal changes nothing', async () => {
    const team = out(await call('admin', 'teams_write', { operation: 'create', name: 'Removal Team' })).data
      .uuid;
    await call('admin', 'teams_write', { operation: 'invite', team, email: 'member@sandbox.invalid' });
    const token = out(await call('admin', 'teams_read', { operation: 'invitations', team })).data[0].token;
    const accepted = await fetch(`${sandbox.url}/api/teams/invitations/${token}/accept`, {
      method: 'POST',
      headers: { cookie: `orbit_session=${P.member.session}` },
    });
    expect(accepted.status).toBe(200);

    sandbox.clearRequests();
    let asked: string[] = [];
    const refused = await as(
      'admin',
      async (h) => {
        asked = h.elicited;
        return h.call('teams_write', {
          operation: 'member_remove',
          team,
          session_id: 3,
          confirm: 'Removal Team',
        });
      },
      decline,
    );
    expect(refused.isError).toBe(true);
    expect(asked[0]).toMatch(
      /Remove Max Member <member@sandbox.invalid> \(member\) from the team "Removal Team"\?/,
    );
    expect(sent('DELETE', `/api/teams/${team}/members`)).toHaveLength(0);
    const stillThere = out(await call('admin', 'teams_read', { operation: 'members', team })).data.members;
    expect(stillThere.map((m: { sessionId: number }) => m.sessionId)).toContain(3);

    const removed = await call(
      'admin',
      'teams_write',
      { operation: 'member_remove', team, session_id: 3 },
      accept,
    );
    expect(out(removed).data).toEqual({ team, removed: 3 });
    expect(sent('DELETE', `/api/teams/${team}/members`)[0]?.json).toEqual({ sessionId: 3 });
  });

  it('never removes the owner, and passes on "use leave" for removing yourself', async () => {
    sandbox.clearRequests();
    const owner = await call('admin', 'teams_write', {
      operation: 'member_remove',
      team: MAIN.uuid,
      session_id: 1,
      confirm: MAIN.name,
    });
    expect(textOf(owner)).toMatch(/forbidden\): Removing the owner of "Sandbox Team" is not allowed/);
    expect(sent('DELETE', `/api/teams/${MAIN.uuid}/members`)).toHaveLength(0);
    const self = await call('admin', 'teams_write', {
      operation: 'member_remove',
      team: MAIN.uuid,
      session_id: 2,
      confirm: MAIN.name,
    });
    expect(textOf(self)).toMatch(/bad_request, HTTP 400\): You cannot remove yourself/);
  });

  it('updates your own preferences, names checked before sending', async () => {
    const result = await call('member', 'teams_write', {
      operation: 'self_update',
      team: MAIN.uuid,
      bill_to_team: true,
      name: 'Max',
    });
    expect(out(result).data).toMatchObject({ bill_to_team: true, name: 'Max' });
    const long = await call('member', 'teams_write', {
      operation: 'self_update',
      team: MAIN.uuid,
      name: 'x'.repeat(101),
    });
    expect(textOf(long)).toMatch(/`name` for "self_update"/);
    const nothing = await call('member', 'teams_write', { operation: 'self_update', team: MAIN.uuid });
    expect(textOf(nothing)).toMatch(
      /needs at least one of `bill_to_team`, `name`[\s\S]*Pass `bill_to_team` or `name`/,
    );
  });

  it('lets a member leave once confirmed, and tells the owner to transfer ownership first', async () => {
    sandbox.clearRequests();
    const owner = await call('demo', 'teams_write', {
      operation: 'leave',
      team: MAIN.uuid,
      confirm: MAIN.name,
    });
    expect(textOf(owner)).toMatch(
      /forbidden\): The owner cannot leave "Sandbox Team"[\s\S]*Transfer ownership/,
    );
    expect(sent('POST', `/api/teams/${MAIN.uuid}/leave`)).toHaveLength(0);
    const left = await call('demo', 'teams_write', { operation: 'leave', team: LAB.uuid }, accept);
    expect(out(left).data).toEqual({ left: LAB.uuid, name: LAB.name });
    const teams = out(await call('demo', 'teams_read', { operation: 'list' })).data;
    expect(teams.map((t: { uuid: string }) => t.uuid)).not.toContain(LAB.uuid);
  });
});

describe('teams_write: invitations', () => {
  it('invites by email as owner or admin, checking the address before sending', async () => {
    const result = await call('admin', 'teams_write', {
      operation: 'invite',
      team: MAIN.uuid,
      email: 'ana@example.com',
      role: 'admin',
    });
    expect(out(result).data).toMatchObject({
      sent: { email: 'ana@example.com', role: 'admin' },
      invitation: { email: 'ana@example.com', role: 'admin', status: 'pending' },
    });
    sandbox.clearRequests();
    const bad = await call('admin', 'teams_write', { operation: 'invite', team: MAIN.uuid, email: 'ana@' });
    expect(textOf(bad)).toMatch(/`email` is not a valid email address/);
    const byMember = await call('member', 'teams_write', {
      operation: 'invite',
      team: MAIN.uuid,
      email: 'bo@example.com',
    });
    expect(textOf(byMember)).toMatch(/Inviting needs the owner or admin role/);
    expect(sent('POST', `/api/teams/${MAIN.uuid}/invitations`)).toHaveLength(0);
  });

  it('revokes a pending invitation once confirmed; a refusal or a non-pending one changes nothing', async () => {
    const { invitation } = out(
      await call('demo', 'teams_write', {
        operation: 'invite',
        team: MAIN.uuid,
        email: 'revoke@example.com',
      }),
    ).data;
    sandbox.clearRequests();
    await call(
      'demo',
      'teams_write',
      { operation: 'revoke_invitation', team: MAIN.uuid, invitation: String(invitation.id) },
      decline,
    );
    expect(sent('PATCH', `/api/teams/${MAIN.uuid}/invitations`)).toHaveLength(0);
    const done = await call(
      'demo',
      'teams_write',
      { operation: 'revoke_invitation', team: MAIN.uuid, invitation: invitation.token },
      accept,
    );
    // What was sent, what the platform answered, and whom it was for; no status it did not say.
    expect(out(done).data).toEqual({
      sent: { action: 'revoke', id: invitation.id },
      reply: { ok: true },
      invitation: { id: invitation.id, email: 'revoke@example.com', role: 'member' },
    });
    expect(sent('PATCH', `/api/teams/${MAIN.uuid}/invitations`)[0]?.json).toEqual({
      action: 'revoke',
      id: invitation.id,
    });
    const twice = await call('demo', 'teams_write', {
      operation: 'revoke_invitation',
      team: MAIN.uuid,
      invitation: invitation.token,
      confirm: MAIN.name,
    });
    expect(textOf(twice)).toMatch(
      /invalid_input\): The invitation to revoke@example.com is revoked; only a pending one can be revoked/,
    );
  });
});
