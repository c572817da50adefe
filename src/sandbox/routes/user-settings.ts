import type { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../accounts/session.js';
import { forbidden, notFound, parseTeamBody, teamBody } from '../teams/access.js';
import { findTeam, membershipOf } from '../teams/model.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/**
 * User settings by session (spec 1 §4.6): default team, responses retention, referral link.
 * They answer in the team envelope, like the rest of the session API.
 */

const DefaultTeam = z.strictObject({
  team_uuid: z.string().min(1).nullable().optional(),
  team_id: z
    .union([z.number().int().positive(), z.string().regex(/^\d+$/)])
    .nullable()
    .optional(),
});
const Retention = z.strictObject({
  responsesRetentionDays: z.number().int().min(0).max(365).nullable(),
});

export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/user/', 'teams');
  ctx.setEnvelope('/api/subscription/referral-link', 'teams');

  app.patch('/api/user/default-team', (c) => {
    const person = requireSession(c, ctx);
    const body = parseTeamBody(DefaultTeam, teamBody(c));
    const ref =
      body.team_uuid !== undefined
        ? body.team_uuid
        : body.team_id === undefined || body.team_id === null
          ? body.team_id
          : String(body.team_id);
    // `team_uuid: null` (or `team_id: null`) clears: personal billing. Nothing sent changes nothing.
    if (ref === null) person.defaultTeamUuid = null;
    else if (ref !== undefined) {
      const team = findTeam(ctx.state, ref);
      if (!team) throw notFound(`No team ${ref}.`);
      if (!membershipOf(team, person.sessionId))
        throw forbidden('You can only bill to a team you are a member of.');
      person.defaultTeamUuid = team.uuid;
    }
    return c.json({ ok: true, metadata: { default_team_uuid: person.defaultTeamUuid } });
  });

  app.get('/api/user/responses-retention', (c) => {
    const person = requireSession(c, ctx);
    return c.json({ responsesRetentionDays: person.responsesRetentionDays });
  });

  app.post('/api/user/responses-retention', (c) => {
    const person = requireSession(c, ctx);
    const { responsesRetentionDays } = parseTeamBody(Retention, teamBody(c));
    person.responsesRetentionDays = responsesRetentionDays;
    return c.json({ ok: true, responsesRetentionDays });
  });

  app.get('/api/subscription/referral-link', (c) => {
    const person = requireSession(c, ctx);
    person.referralCode ??= `ref${person.sessionId.toString(36).padStart(6, '0')}`;
    const origin = new URL(c.req.url).origin;
    return c.json({ code: person.referralCode, url: `${origin}/?ref=${person.referralCode}` });
  });
}
