import type { Context } from 'hono';
import { z } from 'zod';
import type { Person } from '../accounts/people.js';
import { requireSession } from '../accounts/session.js';
import { SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord } from '../util.js';
import { findTeam, type Membership, RANK, type Role, type Team } from './model.js';

/**
 * Who may do what on a team (spec 1 §4.6), and the team envelope's errors: `INVALID_INPUT` is a
 * 422 except where the spec states 400.
 */

const teamError = (status: number, code: string, message: string) =>
  new SandboxError(status, message, { code });
export const forbidden = (message: string) => teamError(403, 'FORBIDDEN', message);
export const notFound = (message: string) => teamError(404, 'NOT_FOUND', message);
export const conflict = (message: string) => teamError(409, 'CONFLICT', message);
export const invalidInput = (message: string, status: 400 | 422 = 422) =>
  teamError(status, 'INVALID_INPUT', message);

export interface TeamCaller {
  person: Person;
  team: Team;
  membership: Membership;
}

/** The session's membership of the addressed team, with at least the given role. */
export function teamCaller(c: Context<SandboxEnv>, ctx: SandboxContext, least: Role): TeamCaller {
  const person = requireSession(c, ctx);
  const ref = c.req.param('team') ?? '';
  const team = findTeam(ctx.state, ref);
  if (!team) throw notFound(`No team ${ref}.`);
  const membership = team.members.find((m) => m.sessionId === person.sessionId);
  if (!membership) throw forbidden('You are not a member of this team.');
  if (RANK[membership.role] < RANK[least]) {
    throw forbidden(
      `This needs the ${least === 'admin' ? 'owner or admin' : least} role; you are ${membership.role}.`,
    );
  }
  return { person, team, membership };
}

/** The JSON object body; an empty body reads as `{}` (leave, accept and the like send none). */
export function teamBody(c: Context<SandboxEnv>): Record<string, unknown> {
  const text = c.get('bodyText');
  if (!text.trim()) return {};
  const json = c.get('bodyJson');
  if (!isRecord(json)) throw invalidInput('The request body must be a JSON object.', 400);
  return json;
}

export function parseTeamBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidInput(`Invalid request: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** 2..50 letters, digits, spaces, hyphens, underscores (spec 1 §4.6, §8). */
export const TeamName = z
  .string()
  .trim()
  .min(2, 'a team name has 2 to 50 characters')
  .max(50, 'a team name has 2 to 50 characters')
  .regex(/^[\p{L}\p{N} _-]+$/u, 'a team name has only letters, digits, spaces, hyphens and underscores');

export const Email = z
  .string()
  .trim()
  // Aborts: the pattern after it backtracks over its input, so it never reads more than 254 characters.
  .max(254, { abort: true })
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be a valid email address');

/** A member by `sessionId` (integer, or its digits as a string). */
export const SessionIdField = z.union([
  z.number().int().positive(),
  z.string().regex(/^\d+$/).transform(Number),
]);
