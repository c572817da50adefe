import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';

/**
 * Needs an API key, so the server's sign-in step runs before it whenever none is configured
 * (the same step any key-using tool triggers); the tool itself only reports the outcome. With
 * `callback_url` it hands the sign-in step the address a browser on another machine ended on.
 */
export default defineTool({
  name: 'auth_login',
  title: 'Sign in',
  // callback_url costs the listing about 7 tokens; "says if a key is there" gave them back (auth_status says it).
  description: 'Sign in or log in through the browser to connect an account (automatic on first keyed call).',
  toolset: 'account',
  credential: 'api_key',
  // The address a browser on another machine ended on (or its code); src/auth/paste.ts reads it.
  input: z.object({ callback_url: z.string().optional() }),
  output: z.object({ signed_in: z.boolean(), source: z.string().optional(), note: z.string().optional() }),
  // It makes the platform issue a key and stores it, so it is not read-only.
  nature: 'write',
  check: () => nextCall('auth_status'),
  idempotent: true,
  pastedSignIn: (args) => args.callback_url,
  async run(_args, { target, credentials }) {
    const key = credentials.get('api_key');
    if (key) return { signed_in: true, source: key.source };
    return {
      signed_in: false,
      note:
        target.kind === 'none'
          ? 'No platform is configured: set ORBIT_BASE_URL (or start with --sandbox).'
          : 'Sign-in is not available in this mode; send an API key with each request or set ORBIT_API_KEY.',
    };
  },
  text: (r) =>
    r.signed_in ? `Signed in (API key from ${r.source}).` : `Not signed in. ${r.note ?? ''}`.trim(),
});
