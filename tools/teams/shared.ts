import { z } from 'zod';
import type { ToolContext } from '../../src/context.js';
import { explainRefusal } from '../../src/credential-refusal.js';
import { InputError, PermissionError } from '../../src/errors.js';
import { NumberLike } from '../../src/replies/number.js';
import { keepOutOfStore } from '../../src/secrets.js';
import type { RequestSpec } from '../../src/upstream/outgoing.js';

/**
 * The session API of spec 1 §4.6 (teams, members, invitations, user settings): every call goes
 * with the session cookie, and a refused session says how to provide one.
 */

export async function sessionCall<S extends z.ZodType>(
  ctx: Pick<ToolContext, 'api'>,
  spec: Omit<RequestSpec, 'credential'> & { schema: S },
): Promise<z.infer<S>> {
  try {
    return (await ctx.api.request({ ...spec, credential: 'session' })).data;
  } catch (error) {
    throw explainRefusal(error, { credential: 'session' });
  }
}

const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
const RANK: Record<Role, number> = { member: 1, admin: 2, owner: 3 };
export const TEAM_STATUSES = ['active', 'paused', 'suspended'] as const;

export const TeamItem = z.looseObject({
  uuid: z.string(),
  name: z.string(),
  status: z.enum(TEAM_STATUSES),
  role: z.enum(ROLES),
});
export const TeamDetails = TeamItem.extend({
  paused_at: z.string().nullish(),
  suspended_at: z.string().nullish(),
  // Amounts may come as numeric strings: spec 1 §2 fixes no type for them.
  usage_limit_usd: NumberLike.nullish(),
  responses_retention_days: z.number().int().min(0).max(365).nullish(),
  balances: z.looseObject({ usd_balance: NumberLike.nullish() }).nullish(),
});
export type TeamDetails = z.infer<typeof TeamDetails>;
export const Member = z.looseObject({
  sessionId: z.number().int(),
  role: z.enum(ROLES),
  joinedAt: z.string().nullish(),
  member_name: z.string().nullish(),
  displayName: z.string().nullish(),
  email: z.string().nullish(),
  usage_limit_usd: NumberLike.nullish(),
  usage_limit_enforced: z.boolean().nullish(),
  usage_usd_monthly: NumberLike.nullish(),
});
export type Member = z.infer<typeof Member>;
export const MemberPage = z.looseObject({
  members: z.array(Member),
  pagination: z.looseObject({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  }),
});
export const Preferences = z.looseObject({
  bill_to_team: z.boolean(),
  name: z.string().nullish(),
  effective_usage_limit_usd: z.number().nullish(),
  effective_usage_limit_enforced: z.boolean().nullish(),
});
export const Invitation = z.looseObject({
  id: z.union([z.number(), z.string()]),
  email: z.string(),
  role: z.enum(['admin', 'member']),
  status: z.string(),
  // The invitation's token joins whoever holds it: read, and kept out of the shared store.
  token: z
    .string()
    .nullish()
    .transform((token) => {
      keepOutOfStore(token ?? undefined);
      return token;
    }),
  created_at: z.string().nullish(),
  expires_at: z.string().nullish(),
});
export type Invitation = z.infer<typeof Invitation>;
export const Ok = z.looseObject({ ok: z.literal(true) });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A team reference as the routes take it (UUID or numeric id); a name is looked up among the caller's teams. */
export async function teamRef(ctx: Pick<ToolContext, 'api'>, team: string | undefined): Promise<string> {
  if (team === undefined || team.trim() === '') {
    throw new InputError('This operation needs `team`.', {
      param: 'team',
      fix: 'Pass the team UUID, numeric id or exact name (teams_read operation "list" shows them).',
    });
  }
  const ref = team.trim();
  if (UUID.test(ref) || /^\d+$/.test(ref)) return ref;
  const { teams } = await sessionCall(ctx, {
    method: 'GET',
    path: '/api/teams',
    schema: z.looseObject({ teams: z.array(TeamItem) }),
  });
  const found = teams.filter((t) => t.name.toLowerCase() === ref.toLowerCase());
  if (found.length === 1 && found[0]) return found[0].uuid;
  throw new InputError(
    found.length === 0
      ? `You are in no team named "${ref}".`
      : `${found.length} of your teams are named "${ref}".`,
    {
      param: 'team',
      fix: `Pass the team UUID instead; your teams: ${teams.map((t) => `${t.name} (${t.uuid})`).join(', ') || 'none'}.`,
    },
  );
}

export const teamPath = (ref: string, rest = '') => `/api/teams/${encodeURIComponent(ref)}${rest}`;

export async function teamDetails(ctx: Pick<ToolContext, 'api'>, ref: string): Promise<TeamDetails> {
  const { team } = await sessionCall(ctx, {
    method: 'GET',
    path: teamPath(ref),
    schema: z.looseObject({ team: TeamDetails }),
  });
  // Anyone with the link joins the team: shown to the caller, never kept in the shared store.
  if (typeof team.invite_link_token === 'string') keepOutOfStore(team.invite_link_token);
  return team;
}

/** The role rules of §4.6, checked before sending: the details say the caller's role. */
export function requireRole(team: TeamDetails, least: Role, doing: string): void {
  if (RANK[team.role] >= RANK[least]) return;
  throw new PermissionError(
    `${doing} needs the ${least === 'admin' ? 'owner or admin' : least} role in "${team.name}"; you are ${team.role}. Nothing was sent.`,
    { fix: `Ask the team's ${least === 'owner' ? 'owner' : 'owner or an admin'} to do it.` },
  );
}

/** A missing argument an operation needs, named. */
export function need<T>(value: T | undefined, param: string, operation: string): T {
  if (value !== undefined) return value;
  throw new InputError(`Operation "${operation}" needs \`${param}\`.`, {
    param,
    fix: `Pass ${param} and call again.`,
  });
}

/** An operation that changes some fields and was given none of them. */
export function nothingToChange(operation: string, fields: readonly string[]): never {
  const named = fields.map((field) => `\`${field}\``).join(', ');
  throw new InputError(`Operation "${operation}" needs at least one of ${named}.`, {
    param: fields[0],
    fix: `Pass ${named.replace(/, ([^,]*)$/, ' or $1')} and call again.`,
  });
}
