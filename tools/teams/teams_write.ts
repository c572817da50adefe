import { z } from 'zod';
import { confirmAction } from '../../src/confirm-action.js';
import { InputError, PermissionError } from '../../src/errors.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { invite, revokeInvitation } from './invitations.js';
import { removeMember, updateMember } from './members.js';
import {
  need,
  nothingToChange,
  Ok,
  Preferences,
  requireRole,
  sessionCall,
  TEAM_STATUSES,
  TeamDetails,
  teamDetails,
  teamPath,
  teamRef,
} from './shared.js';

const session = 'session' as const;
const TeamName = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N} _-]{2,50}$/u, '2 to 50 letters, digits, spaces, hyphens or underscores');
const DisplayName = z.string().trim().min(1).max(100);

/** The teams_read operation that shows what each write did. */
const TEAM_READS = {
  create: 'list',
  update: 'get',
  delete: 'list',
  member_update: 'members',
  member_remove: 'members',
  self_update: 'self',
  leave: 'list',
  invite: 'invitations',
  revoke_invitation: 'invitations',
} as const;

/** A name argument checked by the rule of its operation (§4.6, §8), before sending. */
function nameFor(schema: z.ZodString, value: string | undefined, operation: string): string | undefined {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new InputError(`\`name\` for "${operation}": ${parsed.error.issues[0]?.message ?? 'invalid'}.`, {
    param: 'name',
    fix:
      operation === 'self_update'
        ? 'Give 1 to 100 characters.'
        : 'Give 2 to 50 letters, digits, spaces, hyphens or underscores.',
  });
}

export default defineTool({
  name: 'teams_write',
  title: 'Change teams',
  description:
    'Create, rename, pause or delete teams; invite, remove or change members (role, spending limit); preferences; leave.',
  toolset: 'teams',
  operations: {
    create: { nature: 'write', credential: session },
    update: { nature: 'write', credential: session, idempotent: true },
    delete: { nature: 'delete', credential: session, idempotent: true },
    member_update: { nature: 'write', credential: session, idempotent: true },
    member_remove: { nature: 'delete', credential: session, idempotent: true },
    self_update: { nature: 'write', credential: session, idempotent: true },
    leave: { nature: 'delete', credential: session, idempotent: true },
    invite: { nature: 'write', credential: session },
    revoke_invitation: { nature: 'delete', credential: session, idempotent: true },
  },
  input: z.object({
    operation: z.enum([
      'create',
      'update',
      'delete',
      'member_update',
      'member_remove',
      'self_update',
      'leave',
      'invite',
      'revoke_invitation',
    ]),
    team: z.string().optional().describe('id or name'),
    name: z.string().optional().describe('team name; self_update: your name'),
    status: z.enum(TEAM_STATUSES).optional(),
    session_id: z.number().optional().describe('member'),
    role: z.enum(['admin', 'member']).optional(),
    usage_limit_usd: z.number().nullable().optional().describe('null: team default'),
    usage_limit_enforced: z.boolean().optional(),
    bill_to_team: z.boolean().optional(),
    email: z.string().optional(),
    invitation: z.string().optional().describe('id or token'),
    confirm: z.string().optional().describe('team name, if asked'),
  }),
  output: z.object({ operation: z.string(), data: z.unknown() }),
  check: (a) => {
    const read = TEAM_READS[a.operation];
    return nextCall('teams_read', { operation: read, team: read === 'list' ? undefined : a.team });
  },
  async run(args, ctx) {
    const { operation } = args;
    if (operation === 'create') {
      const name = need(nameFor(TeamName, args.name, operation), 'name', operation);
      const { team } = await sessionCall(ctx, {
        method: 'POST',
        path: '/api/teams',
        body: { name },
        schema: z.looseObject({ team: TeamDetails }),
      });
      return { operation, data: team };
    }
    const ref = await teamRef(ctx, args.team);
    switch (operation) {
      case 'update': {
        const name = nameFor(TeamName, args.name, operation);
        if (name === undefined && args.status === undefined) nothingToChange(operation, ['name', 'status']);
        const team = await teamDetails(ctx, ref);
        requireRole(team, 'admin', 'Changing a team');
        if (args.status && args.status !== 'active' && args.status !== team.status) {
          await confirmAction(ctx, {
            action: `Set the team "${team.name}" from ${team.status} to ${args.status}? It stays ${args.status} until someone sets it back to active.`,
            expected: team.name,
            what: 'the team name',
            given: args.confirm,
          });
        }
        const data = await sessionCall(ctx, {
          method: 'PATCH',
          path: teamPath(ref),
          body: { name, status: args.status },
          schema: z.looseObject({ team: TeamDetails }),
        });
        return { operation, data: data.team };
      }
      case 'delete': {
        const team = await teamDetails(ctx, ref);
        requireRole(team, 'owner', 'Deleting a team');
        await confirmAction(ctx, {
          action: `Delete the team "${team.name}" (${team.uuid})? Every member loses access to it. This cannot be undone.`,
          expected: team.name,
          what: 'the team name',
          given: args.confirm,
        });
        // The platform wants the name as well, as its own confirmation.
        await sessionCall(ctx, {
          method: 'DELETE',
          path: teamPath(ref),
          body: { name: team.name },
          schema: Ok,
        });
        return { operation, data: { deleted: team.uuid, name: team.name } };
      }
      case 'member_update':
        return { operation, data: await updateMember(ctx, ref, args) };
      case 'member_remove':
        return { operation, data: await removeMember(ctx, ref, args) };
      case 'self_update': {
        const name = nameFor(DisplayName, args.name, operation);
        if (name === undefined && args.bill_to_team === undefined)
          nothingToChange(operation, ['bill_to_team', 'name']);
        const data = await sessionCall(ctx, {
          method: 'PATCH',
          path: teamPath(ref, '/members/self'),
          body: { bill_to_team: args.bill_to_team, name },
          schema: z.looseObject({ ok: z.literal(true), preferences: Preferences }),
        });
        return { operation, data: data.preferences };
      }
      case 'leave': {
        const team = await teamDetails(ctx, ref);
        if (team.role === 'owner') {
          throw new PermissionError(`The owner cannot leave "${team.name}". Nothing was sent.`, {
            fix: 'Transfer ownership to another member on the platform first, or delete the team (operation "delete").',
          });
        }
        await confirmAction(ctx, {
          action: `Leave the team "${team.name}"? You lose access to it until someone invites you again.`,
          expected: team.name,
          what: 'the team name',
          given: args.confirm,
        });
        await sessionCall(ctx, { method: 'POST', path: teamPath(ref, '/leave'), schema: Ok });
        return { operation, data: { left: team.uuid, name: team.name } };
      }
      case 'invite':
        return { operation, data: await invite(ctx, ref, args) };
      case 'revoke_invitation':
        return { operation, data: await revokeInvitation(ctx, ref, args) };
    }
  },
});
