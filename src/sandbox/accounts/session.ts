import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { presentedKey } from '../billing.js';
import { SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { SESSION_COOKIE } from './fixtures.js';
import { type Person, personBySession } from './people.js';

/**
 * The session credential of the teams API and user settings (spec 1 §4.6, §5): a cookie. API keys
 * and management tokens are refused here with a message that names the credential to use.
 */
export function requireSession(c: Context<SandboxEnv>, ctx: SandboxContext): Person {
  const session = getCookie(c, SESSION_COOKIE);
  if (!session) {
    const message = presentedKey(c)
      ? `This route takes a signed-in session (the \`${SESSION_COOKIE}\` cookie); API keys and management tokens cannot call the teams API or user settings.`
      : `Sign in first: send the session cookie \`${SESSION_COOKIE}\`.`;
    throw new SandboxError(401, message, { code: 'UNAUTHORIZED' });
  }
  const person = personBySession(ctx.state, session);
  if (!person)
    throw new SandboxError(401, 'The session is not valid or has ended; sign in again.', {
      code: 'UNAUTHORIZED',
    });
  return person;
}
