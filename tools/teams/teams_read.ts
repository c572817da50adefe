import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { listInvitations } from './invitations.js';
import {
  Member,
  MemberPage,
  Preferences,
  sessionCall,
  TeamItem,
  teamDetails,
  teamPath,
  teamRef,
} from './shared.js';

const read = { nature: 'read', credential: 'session' } as const;

/** §4.6 / §8: page from 1, at most 100 members a page; checked before sending. */
function checkPage(page: number | undefined, limit: number | undefined): void {
  if (page !== undefined && !(Number.isInteger(page) && page >= 1)) {
    throw new InputError('`page` must be a whole number from 1.', { param: 'page', fix: 'Start at page 1.' });
  }
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
    throw new InputError('`limit` must be a whole number from 1 to 100.', {
      param: 'limit',
      fix: 'Leave it out for all members, or give 1 to 100 per page.',
    });
  }
}

export default defineTool({
  name: 'teams_read',
  title: 'Read teams',
  description: 'Teams, one team, who is on it (members, roles), own preferences, pending invitations.',
  toolset: 'teams',
  operations: { list: read, get: read, members: read, self: read, invitations: read },
  input: z.object({
    operation: z.enum(['list', 'get', 'members', 'self', 'invitations']),
    team: z.string().optional().describe('id or name'),
    page: z.number().optional(),
    limit: z.number().optional().describe('max 100'),
  }),
  // Loose: a `not_usable` note passes without being listed (tokens).
  output: z.looseObject({ operation: z.string(), data: z.unknown() }),
  async run(args, ctx) {
    const { operation } = args;
    if (operation === 'list') {
      const data = await sessionCall(ctx, {
        method: 'GET',
        path: '/api/teams',
        schema: z.looseObject({ teams: z.array(z.unknown()) }),
      });
      // Each team read on its own: one that cannot be used is left out and named.
      const teams = usableList(TeamItem, data.teams, { nameKeys: ['name', 'uuid'] });
      const notUsable = leftOutNote('team', teams.left_out);
      return { operation, data: teams.items, ...(notUsable ? { not_usable: notUsable } : {}) };
    }
    const ref = await teamRef(ctx, args.team);
    if (operation === 'get') return { operation, data: await teamDetails(ctx, ref) };
    if (operation === 'members') {
      checkPage(args.page, args.limit);
      const data = await sessionCall(ctx, {
        method: 'GET',
        path: teamPath(ref, '/members'),
        query: { page: args.page, limit: args.limit },
        schema: MemberPage.extend({ members: z.array(z.unknown()) }),
      });
      // Each member read on its own: one that cannot be used is left out and named.
      const members = usableList(Member, data.members, { nameKeys: ['displayName', 'member_name', 'email'] });
      const notUsable = leftOutNote('member', members.left_out);
      return {
        operation,
        data: { ...data, members: members.items },
        ...(notUsable ? { not_usable: notUsable } : {}),
      };
    }
    if (operation === 'self') {
      return {
        operation,
        data: await sessionCall(ctx, {
          method: 'GET',
          path: teamPath(ref, '/members/self'),
          schema: Preferences,
        }),
      };
    }
    const invitations = await listInvitations(ctx, ref);
    const notUsable = leftOutNote('invitation', invitations.left_out);
    return { operation, data: invitations.items, ...(notUsable ? { not_usable: notUsable } : {}) };
  },
});
