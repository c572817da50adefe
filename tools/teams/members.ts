import { z } from 'zod';
import { confirmAction } from '../../src/confirm-action.js';
import type { ToolContext } from '../../src/context.js';
import { InputError, PermissionError } from '../../src/errors.js';
import {
  type Member,
  MemberPage,
  need,
  nothingToChange,
  Ok,
  requireRole,
  sessionCall,
  type TeamDetails,
  teamDetails,
  teamPath,
} from './shared.js';

/**
 * Changing and removing members (spec 1 §4.6), with the rules checked before sending where the
 * roles are known: only an owner or admin may, and the owner is never demoted or removed.
 */

interface MemberArgs {
  session_id?: number;
  role?: 'admin' | 'member';
  usage_limit_usd?: number | null;
  usage_limit_enforced?: boolean;
  confirm?: string;
}

type Ctx = Pick<ToolContext, 'api' | 'confirm'>;

/** The member argument: a session id as the members list shows it. */
function sessionIdOf(args: MemberArgs, operation: string): number {
  const id = need(args.session_id, 'session_id', operation);
  if (Number.isInteger(id) && id > 0) return id;
  throw new InputError("`session_id` must be a member's sessionId, a positive whole number.", {
    param: 'session_id',
    fix: 'teams_read operation "members" lists the members with their sessionId.',
  });
}

async function target(ctx: Ctx, ref: string, sessionId: number, doing: string) {
  const team = await teamDetails(ctx, ref);
  requireRole(team, 'admin', doing);
  // Members are at most 100 a page; teams are small, so a few pages find anyone.
  for (let page = 1; ; page++) {
    const { members, pagination } = await sessionCall(ctx, {
      method: 'GET',
      path: teamPath(ref, '/members'),
      query: { page, limit: 100 },
      schema: MemberPage,
    });
    const found = members.find((m) => m.sessionId === sessionId);
    if (found) return { team, member: found };
    if (page >= pagination.totalPages || members.length === 0) break;
  }
  throw new InputError(`Session ${sessionId} is not a member of "${team.name}".`, {
    param: 'session_id',
    fix: 'teams_read operation "members" lists the members with their sessionId.',
  });
}

function ownerUntouchable(team: TeamDetails, member: Member, doing: string): void {
  if (member.role !== 'owner') return;
  throw new PermissionError(`${doing} the owner of "${team.name}" is not allowed. Nothing was sent.`, {
    fix: 'Ownership must be transferred first; the owner stays owner until then.',
  });
}

const who = (m: Member) =>
  `${m.displayName ?? m.member_name ?? `session ${m.sessionId}`}${m.email ? ` <${m.email}>` : ''}`;

export async function updateMember(ctx: Ctx, ref: string, args: MemberArgs) {
  const sessionId = sessionIdOf(args, 'member_update');
  if (
    args.role === undefined &&
    args.usage_limit_usd === undefined &&
    args.usage_limit_enforced === undefined
  )
    nothingToChange('member_update', ['role', 'usage_limit_usd', 'usage_limit_enforced']);
  const limit = args.usage_limit_usd;
  if (limit !== undefined && limit !== null && !(limit >= 0)) {
    throw new InputError('`usage_limit_usd` cannot be negative.', {
      param: 'usage_limit_usd',
      fix: 'Give USD, 0 or more, or null for the team default.',
    });
  }
  const { team, member } = await target(ctx, ref, sessionId, 'Changing a member');
  if (args.role !== undefined) ownerUntouchable(team, member, 'Changing the role of');
  await sessionCall(ctx, {
    method: 'PATCH',
    path: teamPath(ref, '/members'),
    body: {
      sessionId,
      role: args.role,
      usage_limit_usd: args.usage_limit_usd,
      usage_limit_enforced: args.usage_limit_enforced,
    },
    schema: Ok,
  });
  return {
    team: team.uuid,
    sessionId,
    ...(args.role !== undefined ? { role: args.role } : {}),
    ...(args.usage_limit_usd !== undefined ? { usage_limit_usd: args.usage_limit_usd } : {}),
    ...(args.usage_limit_enforced !== undefined ? { usage_limit_enforced: args.usage_limit_enforced } : {}),
  };
}

export async function removeMember(ctx: Ctx, ref: string, args: MemberArgs) {
  const sessionId = sessionIdOf(args, 'member_remove');
  const { team, member } = await target(ctx, ref, sessionId, 'Removing a member');
  ownerUntouchable(team, member, 'Removing');
  await confirmAction(ctx, {
    action: `Remove ${who(member)} (${member.role}) from the team "${team.name}"? They lose access to the team at once.`,
    expected: team.name,
    what: 'the team name',
    given: args.confirm,
  });
  await sessionCall(ctx, {
    method: 'DELETE',
    path: teamPath(ref, '/members'),
    body: { sessionId },
    schema: z.looseObject({ ok: z.literal(true) }),
  });
  return { team: team.uuid, removed: sessionId };
}
