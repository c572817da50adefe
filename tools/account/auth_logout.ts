import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';

export default defineTool({
  name: 'auth_logout',
  title: 'Sign out',
  description: 'Sign out or log out: forget the stored key on this machine (environment keys stay).',
  toolset: 'account',
  credential: 'none',
  input: z.object({}),
  output: z.object({ removed: z.array(z.enum(['api_key', 'management_token', 'session'])) }),
  nature: 'delete',
  local: true,
  async run(_args, { credentials }) {
    return { removed: credentials.forget ? await credentials.forget() : [] };
  },
  text: (r) =>
    r.removed.length ? `Removed stored ${r.removed.join(', ')}.` : 'Nothing was stored by this server.',
});
