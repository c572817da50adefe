import type { Hono } from 'hono';
import { z } from 'zod';
import { nextNumber } from '../accounts/people.js';
import { requireSession } from '../accounts/session.js';
import { SANDBOX_WORD } from '../constants.js';
import { SandboxError } from '../errors.js';
import {
  conflict,
  Email,
  forbidden,
  notFound,
  parseTeamBody,
  teamBody,
  teamCaller,
} from '../teams/access.js';
import { addMember, allTeams, membershipOf, type Team } from '../teams/model.js';
import { joinRequestView } from '../teams/views.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { pad } from '../util.js';

/**
 * The invite link and the join requests it leads to (spec 1 §4.6 names these operations without
 * their paths; the sandbox's paths are below). Invite-link emails: owner/admin, 403 while the link
 * is disabled, at most 5 emails per minute per team (429 RATE_LIMITED with Retry-After).
 */

const EMAILS_PER_MINUTE = 5;
const MINUTE_MS = 60_000;

const LinkAction = z.strictObject({ action: z.enum(['enable', 'disable', 'regenerate']) });
const EmailsBody = z.strictObject({ emails: z.array(Email).min(1).max(EMAILS_PER_MINUTE) });
const Decision = z.strictObject({ id: z.number().int(), action: z.enum(['accept', 'reject']) });
const Removal = z.strictObject({ id: z.number().int() });

function teamByLink(ctx: SandboxContext, token: string): Team {
  const team = allTeams(ctx.state).find((t) => t.inviteLinkToken === token);
  if (!team) throw notFound('No team has this invite link.');
  if (!team.inviteLinkEnabled) throw forbidden('This team has disabled its invite link.');
  return team;
}

function newLinkToken(ctx: SandboxContext, team: Team): string {
  return `link-${SANDBOX_WORD}-sbx-${team.id}-${pad(nextNumber(ctx.state, 'invite-links'))}`;
}

export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  // Public: what a person opening the link sees.
  app.get('/api/teams/invite-link/:token', (c) => {
    const team = teamByLink(ctx, c.req.param('token'));
    return c.json({ team: { uuid: team.uuid, name: team.name }, invite_link_enabled: true });
  });

  app.post('/api/teams/invite-link/:token/join-requests', (c) => {
    const person = requireSession(c, ctx);
    const team = teamByLink(ctx, c.req.param('token'));
    if (membershipOf(team, person.sessionId)) throw conflict('You are already a member of this team.');
    if (team.joinRequests.some((r) => r.sessionId === person.sessionId && r.status === 'pending')) {
      throw conflict('You already asked to join this team; wait for an answer or cancel the request.');
    }
    const request = {
      id: nextNumber(ctx.state, 'join-requests'),
      sessionId: person.sessionId,
      status: 'pending' as const,
      createdAt: ctx.now(),
      decidedAt: null,
    };
    team.joinRequests.push(request);
    return c.json({ join_request: joinRequestView(ctx.state, request) }, 201);
  });

  app.delete('/api/teams/join-requests/:id', (c) => {
    const person = requireSession(c, ctx);
    const id = Number(c.req.param('id'));
    const request = allTeams(ctx.state)
      .flatMap((t) => t.joinRequests)
      .find((r) => r.id === id && r.sessionId === person.sessionId);
    if (!request) throw notFound('You have no join request with this id.');
    if (request.status !== 'pending') throw conflict(`This join request is already ${request.status}.`);
    request.status = 'cancelled';
    request.decidedAt = ctx.now();
    return c.json({ ok: true });
  });

  app.patch('/api/teams/:team/invite-link', (c) => {
    const { team } = teamCaller(c, ctx, 'admin');
    const { action } = parseTeamBody(LinkAction, teamBody(c));
    if (action === 'disable') team.inviteLinkEnabled = false;
    else {
      team.inviteLinkEnabled = true;
      if (action === 'regenerate' || team.inviteLinkToken === null)
        team.inviteLinkToken = newLinkToken(ctx, team);
    }
    return c.json({
      ok: true,
      invite_link_enabled: team.inviteLinkEnabled,
      invite_link_token: team.inviteLinkEnabled ? team.inviteLinkToken : null,
    });
  });

  app.post('/api/teams/:team/invite-link/emails', (c) => {
    const { team } = teamCaller(c, ctx, 'admin');
    const { emails } = parseTeamBody(EmailsBody, teamBody(c));
    if (!team.inviteLinkEnabled)
      throw forbidden('The invite link is disabled; enable it before sending it by email.');
    const now = ctx.now();
    const recent = team.inviteEmailsSentAt.filter((at) => at > now - MINUTE_MS);
    team.inviteEmailsSentAt = recent;
    const over = recent.length + emails.length - EMAILS_PER_MINUTE;
    if (over > 0) {
      // The moment enough of the last minute's sends age out to make room for this request.
      const freedAt = (recent[over - 1] ?? now) + MINUTE_MS;
      const seconds = Math.max(1, Math.ceil((freedAt - now) / 1000));
      throw new SandboxError(
        429,
        `At most ${EMAILS_PER_MINUTE} invite-link emails per minute; try again in ${seconds} s.`,
        {
          code: 'RATE_LIMITED',
          headers: { 'Retry-After': String(seconds) },
        },
      );
    }
    for (const _ of emails) recent.push(now);
    return c.json({ ok: true, sent: emails.length });
  });

  app.get('/api/teams/:team/join-requests', (c) => {
    const { team } = teamCaller(c, ctx, 'admin');
    return c.json({ join_requests: team.joinRequests.map((r) => joinRequestView(ctx.state, r)) });
  });

  app.patch('/api/teams/:team/join-requests', (c) => {
    const { team } = teamCaller(c, ctx, 'admin');
    const body = parseTeamBody(Decision, teamBody(c));
    const request = team.joinRequests.find((r) => r.id === body.id);
    if (!request) throw notFound('No such join request in this team.');
    if (request.status !== 'pending') throw conflict(`This join request is already ${request.status}.`);
    request.status = body.action === 'accept' ? 'accepted' : 'rejected';
    request.decidedAt = ctx.now();
    if (body.action === 'accept' && !membershipOf(team, request.sessionId)) {
      addMember(team, request.sessionId, 'member', ctx.now());
    }
    return c.json({ ok: true, join_request: joinRequestView(ctx.state, request) });
  });

  app.delete('/api/teams/:team/join-requests', (c) => {
    const { team } = teamCaller(c, ctx, 'admin');
    const { id } = parseTeamBody(Removal, teamBody(c));
    const request = team.joinRequests.find((r) => r.id === id);
    if (!request) throw notFound('No such join request in this team.');
    if (request.status === 'pending')
      throw conflict('A pending join request cannot be deleted; accept or reject it first.');
    team.joinRequests = team.joinRequests.filter((r) => r !== request);
    return c.json({ ok: true });
  });
}
