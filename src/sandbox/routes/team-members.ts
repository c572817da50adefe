import type { Hono } from 'hono';
import { z } from 'zod';
import { allPeople } from '../accounts/people.js';
import {
  forbidden,
  invalidInput,
  notFound,
  parseTeamBody,
  SessionIdField,
  teamBody,
  teamCaller,
} from '../teams/access.js';
import { membershipOf, removeMember, type Team } from '../teams/model.js';
import { memberView, preferencesView } from '../teams/views.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/**
 * Members, own preferences and leaving (spec 1 §4.6). The owner cannot be demoted or removed
 * (403), nobody changes their own role or removes themselves (400: use leave), the owner cannot
 * leave (403: transfer ownership first).
 */

const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
const MemberUpdate = z
  .strictObject({
    sessionId: SessionIdField,
    role: z.enum(['admin', 'member']).optional(),
    usage_limit_usd: z.number().min(0).nullable().optional(),
    usage_limit_enforced: z.boolean().optional(),
  })
  .refine(
    (b) => b.role !== undefined || b.usage_limit_usd !== undefined || b.usage_limit_enforced !== undefined,
    'send `role`, or `usage_limit_usd` / `usage_limit_enforced`',
  );
const MemberRemoval = z.object({ sessionId: SessionIdField });
const SelfUpdate = z
  .strictObject({ bill_to_team: z.boolean().optional(), name: z.string().trim().min(1).max(100).optional() })
  .refine((b) => b.bill_to_team !== undefined || b.name !== undefined, 'send `bill_to_team`, `name` or both');

function mustBeMember(team: Team, sessionId: number) {
  const target = membershipOf(team, sessionId);
  if (!target) throw notFound(`Session ${sessionId} is not a member of this team.`);
  return target;
}

export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.get('/api/teams/:team/members', (c) => {
    const { team } = teamCaller(c, ctx, 'member');
    const query = parseTeamBody(PageQuery, c.req.query());
    const members = [...team.members].sort((a, b) => a.joinedAt - b.joinedAt || a.sessionId - b.sessionId);
    const limit = query.limit ?? Math.max(1, members.length);
    const page = members.slice((query.page - 1) * limit, query.page * limit);
    return c.json({
      members: page.map((m) => memberView(ctx.state, m)),
      pagination: {
        page: query.page,
        limit,
        total: members.length,
        totalPages: Math.ceil(members.length / limit),
      },
    });
  });

  app.patch('/api/teams/:team/members', (c) => {
    const { person, team } = teamCaller(c, ctx, 'admin');
    const body = parseTeamBody(MemberUpdate, teamBody(c));
    const target = mustBeMember(team, body.sessionId);
    if (body.role !== undefined) {
      if (target.role === 'owner')
        throw forbidden("The owner's role cannot be changed; transfer ownership instead.");
      if (target.sessionId === person.sessionId) throw invalidInput('You cannot change your own role.', 400);
      target.role = body.role;
    }
    if (body.usage_limit_usd !== undefined) target.usageLimitUsd = body.usage_limit_usd;
    if (body.usage_limit_enforced !== undefined) target.usageLimitEnforced = body.usage_limit_enforced;
    return c.json({ ok: true });
  });

  app.delete('/api/teams/:team/members', (c) => {
    const { person, team } = teamCaller(c, ctx, 'admin');
    const body = teamBody(c);
    const { sessionId } = parseTeamBody(MemberRemoval, {
      sessionId: body.sessionId ?? c.req.query('sessionId'),
    });
    const target = mustBeMember(team, sessionId);
    if (target.role === 'owner') throw forbidden('The owner cannot be removed from the team.');
    if (target.sessionId === person.sessionId) {
      throw invalidInput('You cannot remove yourself; use POST /api/teams/{teamUuid}/leave.', 400);
    }
    removeMember(team, sessionId);
    forgetDefault(ctx, team, sessionId);
    return c.json({ ok: true });
  });

  app.get('/api/teams/:team/members/self', (c) => {
    const { team, membership } = teamCaller(c, ctx, 'member');
    return c.json(preferencesView(team, membership));
  });

  app.patch('/api/teams/:team/members/self', (c) => {
    const { team, membership } = teamCaller(c, ctx, 'member');
    const body = parseTeamBody(SelfUpdate, teamBody(c));
    if (body.bill_to_team !== undefined) membership.billToTeam = body.bill_to_team;
    if (body.name !== undefined) membership.name = body.name;
    return c.json({ ok: true, preferences: preferencesView(team, membership) });
  });

  app.post('/api/teams/:team/leave', (c) => {
    const { person, team, membership } = teamCaller(c, ctx, 'member');
    if (membership.role === 'owner')
      throw forbidden('The owner cannot leave the team; transfer ownership first.');
    removeMember(team, person.sessionId);
    forgetDefault(ctx, team, person.sessionId);
    return c.json({ ok: true });
  });
}

/** A person who is no longer a member no longer bills to that team by default. */
function forgetDefault(ctx: SandboxContext, team: Team, sessionId: number): void {
  const person = allPeople(ctx.state).find((p) => p.sessionId === sessionId);
  if (person?.defaultTeamUuid === team.uuid) person.defaultTeamUuid = null;
}
