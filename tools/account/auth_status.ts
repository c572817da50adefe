import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';

export default defineTool({
  name: 'auth_status',
  title: 'Sign-in status',
  description:
    'Logged in? Sign-in status: credentials used (API key, management token, session), their source; never values.',
  toolset: 'account',
  credential: 'none',
  input: z.object({}),
  output: z.object({
    platform: z.enum(['platform', 'sandbox', 'none']),
    base_url: z.string().optional(),
    credentials: z.array(
      z.object({
        kind: z.enum(['api_key', 'management_token', 'session']),
        present: z.boolean(),
        source: z.string().optional(),
      }),
    ),
    can_sign_in: z.boolean(),
  }),
  nature: 'read',
  local: true,
  async run(_args, { target, credentials }) {
    return {
      platform: target.kind,
      ...(target.kind !== 'none' ? { base_url: target.baseUrl } : {}),
      credentials: credentials.describe(),
      can_sign_in: credentials.signIn !== undefined,
    };
  },
  text: (r) =>
    `${r.platform}${r.base_url ? ` at ${r.base_url}` : ''}; ${r.credentials.map((c) => `${c.kind}: ${c.present ? `yes (${c.source})` : 'no'}`).join(', ')}${r.can_sign_in ? '; sign-in available' : ''}`,
});
