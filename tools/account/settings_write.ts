import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { sessionCall, teamRef } from '../teams/shared.js';

const write = { nature: 'write', credential: 'session', idempotent: true } as const;

export default defineTool({
  name: 'settings_write',
  title: 'Change account settings',
  description:
    'Change account settings: default team billed (null: personal), days responses are stored (retention; 0 stops storing).',
  toolset: 'account',
  operations: { default_team: write, retention: write },
  input: z.object({
    operation: z.enum(['default_team', 'retention']),
    team: z.string().nullable().optional().describe('id or name'),
    retention_days: z.number().nullable().optional().describe('0-365; null clears'),
  }),
  output: z.object({ operation: z.string(), data: z.unknown() }),
  check: (a) =>
    a.operation === 'retention'
      ? nextCall('settings_read', { operation: 'retention' })
      : nextCall('teams_read', { operation: 'list' }),
  async run(args, ctx) {
    const { operation } = args;
    if (operation === 'retention') {
      const days = args.retention_days;
      if (days === undefined || (days !== null && !(Number.isInteger(days) && days >= 0 && days <= 365))) {
        throw new InputError(
          days === undefined
            ? 'Operation "retention" needs `retention_days`.'
            : '`retention_days` must be a whole number from 0 to 365.',
          {
            param: 'retention_days',
            fix: 'Pass a whole number of days from 0 to 365, or null to clear your override.',
          },
        );
      }
      await sessionCall(ctx, {
        method: 'POST',
        path: '/api/user/responses-retention',
        body: { responsesRetentionDays: args.retention_days },
        // "Stored per session": the reply's shape is not shown.
        schema: z.looseObject({}),
      });
      return { operation, data: { retention_days: args.retention_days } };
    }
    if (args.team === undefined) {
      throw new InputError('Operation "default_team" needs `team`.', {
        param: 'team',
        fix: 'Pass a team UUID, id or name to bill it by default, or null for personal billing.',
      });
    }
    const ref = args.team === null ? null : await teamRef(ctx, args.team);
    const body = ref === null || !/^\d+$/.test(ref) ? { team_uuid: ref } : { team_id: Number(ref) };
    const data = await sessionCall(ctx, {
      method: 'PATCH',
      path: '/api/user/default-team',
      body,
      schema: z.looseObject({ metadata: z.looseObject({ default_team_uuid: z.string().nullable() }) }),
    });
    return { operation, data: { default_team_uuid: data.metadata.default_team_uuid } };
  },
});
