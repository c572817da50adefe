import type { Hono } from 'hono';
import { z } from 'zod';
import { allPeople } from '../accounts/people.js';
import { requireSession } from '../accounts/session.js';
import {
  conflict,
  invalidInput,
  notFound,
  parseTeamBody,
  SessionIdField,
  TeamName,
  teamBody,
  teamCaller,
} from '../teams/access.js';
import { createTeam, deleteTeam, membershipOf, TEAM_STATUSES, type Team, teamsOf } from '../teams/model.js';
import { teamDetails, teamListItem } from '../teams/views.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/** Teams themselves (spec 1 §4.6): list, create, details, rename and status, delete, transfer. */

const CreateBody = z.strictObject({ name: TeamName });
const UpdateBody = z
  .strictObject({ name: TeamName.optional(), status: z.enum(TEAM_STATUSES).optional() })
  .refine((body) => body.name !== undefined || body.status !== undefined, 'send `name`, `status` or both');
const DeleteBody = z.object({ name: z.string({ error: '`name` must be the team name, to confirm' }) });
const TransferBody = z.object({ sessionId: SessionIdField });

/** "409 if the caller already has a team of that name": teams the caller owns, case-insensitively. */
function assertNameFree(ctx: SandboxContext, sessionId: number, name: string, except?: Team): void {
  const taken = teamsOf(ctx.state, sessionId).some(
    (team) =>
      team !== except &&
      membershipOf(team, sessionId)?.role === 'owner' &&
      team.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) throw conflict(`You already have a team named "${name}".`);
}

export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/teams', 'teams');

  app.get('/api/teams', (c) => {
    const person = requireSession(c, ctx);
    const teams = teamsOf(ctx.state, person.sessionId).map((team) =>
      teamListItem(team, membershipOf(team, person.sessionId)?.role ?? 'member'),
    );
    return c.json({ teams });
  });

  app.post('/api/teams', (c) => {
    const person = requireSession(c, ctx);
    const { name } = parseTeamBody(CreateBody, teamBody(c));
    assertNameFree(ctx, person.sessionId, name);
    const team = createTeam(ctx.state, person.sessionId, name);
    return c.json({ team: teamDetails(ctx.state, team, 'owner') }, 201);
  });

  app.get('/api/teams/:team', (c) => {
    const { team, membership } = teamCaller(c, ctx, 'member');
    return c.json({ team: teamDetails(ctx.state, team, membership.role) });
  });

  app.patch('/api/teams/:team', (c) => {
    const { team, membership } = teamCaller(c, ctx, 'admin');
    const body = parseTeamBody(UpdateBody, teamBody(c));
    if (body.name !== undefined) {
      const owner = team.members.find((m) => m.role === 'owner');
      if (owner) assertNameFree(ctx, owner.sessionId, body.name, team);
      team.name = body.name;
    }
    if (body.status !== undefined && body.status !== team.status) {
      team.status = body.status;
      team.pausedAt = body.status === 'paused' ? ctx.now() : null;
      team.suspendedAt = body.status === 'suspended' ? ctx.now() : null;
    }
    return c.json({ team: teamDetails(ctx.state, team, membership.role) });
  });

  app.delete('/api/teams/:team', (c) => {
    const { team } = teamCaller(c, ctx, 'owner');
    const { name } = parseTeamBody(DeleteBody, teamBody(c));
    if (name !== team.name)
      throw invalidInput(`\`name\` must equal the team name ("${team.name}") to delete it.`);
    deleteTeam(ctx.state, team);
    for (const person of allPeople(ctx.state)) {
      if (person.defaultTeamUuid === team.uuid) person.defaultTeamUuid = null;
    }
    return c.json({ ok: true });
  });

  // Ownership transfer: the owner becomes admin, the target owner (spec 1 §3).
  app.post('/api/teams/:team/transfer-ownership', (c) => {
    const { person, team, membership } = teamCaller(c, ctx, 'owner');
    const { sessionId } = parseTeamBody(TransferBody, teamBody(c));
    if (sessionId === person.sessionId)
      throw invalidInput('You already own this team; name another member.', 400);
    const target = membershipOf(team, sessionId);
    if (!target) throw notFound(`Session ${sessionId} is not a member of this team.`);
    membership.role = 'admin';
    target.role = 'owner';
    return c.json({ ok: true });
  });
}
