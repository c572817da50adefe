import type { Hono } from 'hono';
import { z } from 'zod';
import { nextNumber } from '../accounts/people.js';
import { requireSession } from '../accounts/session.js';
import { SANDBOX_WORD } from '../constants.js';
import { conflict, Email, notFound, parseTeamBody, teamBody, teamCaller } from '../teams/access.js';
import {
  addMember,
  findInvitation,
  INVITATION_TTL_MS,
  invitationStatus,
  membershipOf,
} from '../teams/model.js';
import { invitationView, teamListItem } from '../teams/views.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { pad } from '../util.js';

/**
 * Email invitations (spec 1 §2.8, §3, §4.6). Listed routes: list, create, revoke. The spec names
 * but does not show the public look-up and the accept route; the sandbox serves them at
 * `GET /api/teams/invitations/{token}` and `POST /api/teams/invitations/{token}/accept`.
 */

const CreateBody = z.strictObject({ email: Email, role: z.enum(['admin', 'member']).default('member') });
const RevokeBody = z
  .strictObject({
    action: z.literal('revoke'),
    id: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
    token: z.string().min(1).optional(),
  })
  .refine((b) => b.id !== undefined || b.token !== undefined, 'send the invitation `id` or `token`');

export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  // Literal paths first, so they are never read as a team id.
  app.get('/api/teams/invitations/:token', (c) => {
    const found = findInvitation(ctx.state, c.req.param('token'));
    if (!found) throw notFound('No invitation with this token.');
    const { team, invitation } = found;
    return c.json({
      invitation: {
        team: { uuid: team.uuid, name: team.name },
        email: invitation.email,
        role: invitation.role,
        status: invitationStatus(invitation, ctx.now()),
        expires_at: new Date(invitation.expiresAt).toISOString(),
      },
    });
  });

  app.post('/api/teams/invitations/:token/accept', (c) => {
    const person = requireSession(c, ctx);
    const found = findInvitation(ctx.state, c.req.param('token'));
    if (!found) throw notFound('No invitation with this token.');
    const { team, invitation } = found;
    const status = invitationStatus(invitation, ctx.now());
    if (status !== 'pending')
      throw conflict(`This invitation is ${status}; only a pending invitation can be accepted.`);
    if (membershipOf(team, person.sessionId)) throw conflict('You are already a member of this team.');
    invitation.status = 'accepted';
    addMember(team, person.sessionId, invitation.role, ctx.now());
    return c.json({ ok: true, team: teamListItem(team, invitation.role) });
  });

  app.get('/api/teams/:team/invitations', (c) => {
    const { team } = teamCaller(c, ctx, 'admin');
    return c.json({ invitations: team.invitations.map((i) => invitationView(i, ctx.now())) });
  });

  app.post('/api/teams/:team/invitations', (c) => {
    const { team } = teamCaller(c, ctx, 'admin');
    const body = parseTeamBody(CreateBody, teamBody(c));
    const id = nextNumber(ctx.state, 'invitations');
    const now = ctx.now();
    const invitation = {
      id,
      email: body.email,
      role: body.role,
      status: 'pending' as const,
      token: `inv-${SANDBOX_WORD}-sbx-${pad(id)}`,
      createdAt: now,
      expiresAt: now + INVITATION_TTL_MS,
    };
    team.invitations.push(invitation);
    return c.json({ invitation: invitationView(invitation, now) }, 201);
  });

  app.patch('/api/teams/:team/invitations', (c) => {
    const { team } = teamCaller(c, ctx, 'admin');
    const body = parseTeamBody(RevokeBody, teamBody(c));
    const invitation = team.invitations.find((i) => i.id === body.id || i.token === body.token);
    if (!invitation) throw notFound('No such invitation in this team.');
    const status = invitationStatus(invitation, ctx.now());
    if (status !== 'pending')
      throw conflict(`This invitation is ${status}; only a pending one can be revoked.`);
    invitation.status = 'revoked';
    // The result says no more than that (the platform's reference shows no invitation in it, issue 32).
    return c.json({ ok: true });
  });
}
