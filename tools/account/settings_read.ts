import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { sessionCall } from '../teams/shared.js';
import { Retention } from './settings-replies.js';

const read = { nature: 'read', credential: 'session' } as const;

export default defineTool({
  name: 'settings_read',
  title: 'Read account settings',
  description: 'Account settings: days responses are kept (retention), referral code and link.',
  toolset: 'account',
  operations: { retention: read, referral_link: read },
  input: z.object({ operation: z.enum(['retention', 'referral_link']) }),
  output: z.object({ operation: z.string(), data: z.unknown() }),
  async run({ operation }, ctx) {
    if (operation === 'retention') {
      const data = await sessionCall(ctx, {
        method: 'GET',
        path: '/api/user/responses-retention',
        schema: Retention,
      });
      return { operation, data: { retention_days: data.responsesRetentionDays } };
    }
    // The platform makes the code on the first call, then returns the same one.
    const data = await sessionCall(ctx, {
      method: 'GET',
      path: '/api/subscription/referral-link',
      schema: z.looseObject({ code: z.string(), url: z.string() }),
    });
    return { operation, data: { code: data.code, url: data.url } };
  },
});
