import type { Context } from 'hono';
import { type Person, personById } from '../accounts/people.js';
import { SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { findManagementToken, hasScope, type ManagementScope, type ManagementToken } from './tokens.js';

/**
 * Who may call the management API (spec 1 §4.3, §5, §7.2): a management token in the
 * Authorization header, with the route's scope. API keys, tokens in a URL and expired or revoked
 * tokens are refused with `invalid_management_token`; a missing scope with `insufficient_scope`.
 */

const URL_SECRET_PARAMS = ['token', 'access_token', 'management_token', 'api_key', 'key'];

const invalid = (message: string) =>
  new SandboxError(401, message, {
    type: 'authentication_error',
    code: 'invalid_management_token',
    headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
  });

export interface ManagementCaller {
  token: ManagementToken;
  owner: Person;
}

export function requireManagementToken(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  scope: ManagementScope,
): ManagementCaller {
  if (URL_SECRET_PARAMS.some((name) => c.req.query(name) !== undefined)) {
    throw invalid(
      'Credentials are never accepted in the URL: send the management token as `Authorization: Bearer <token>`.',
    );
  }
  const header = c.req.header('authorization');
  const secret = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const apiKeyHeader = c.req.header('x-api-key')?.trim();
  if (!secret) {
    throw invalid(
      apiKeyHeader
        ? 'The management API takes a management token in `Authorization: Bearer <token>`, not `x-api-key`; API keys cannot call it.'
        : 'Missing management token: send `Authorization: Bearer <token>`. Create one in account settings (scopes usage:read, api_keys:read, api_keys:write).',
    );
  }
  if (ctx.state.getKey(secret)) {
    throw invalid(
      'This is an inference API key; the management API takes a management token (create one in account settings with the scope this route needs).',
    );
  }
  const token = findManagementToken(ctx.state, secret);
  if (!token) throw invalid('The management token is not valid.');
  if (token.revokedAt !== null) throw invalid('The management token was revoked; create a new one.');
  if (token.expiresAt <= ctx.now()) throw invalid('The management token has expired; create a new one.');
  const owner = personById(ctx.state, token.ownerSessionId);
  if (!owner) throw invalid('The session that owned this management token no longer exists.');
  if (!hasScope(token, scope)) {
    throw new SandboxError(
      403,
      `This management token lacks the \`${scope}\` scope (it has ${token.scopes.join(', ') || 'none'}); tokens never gain scopes, so create a new one with \`${scope}\`.`,
      {
        type: 'permission_error',
        code: 'insufficient_scope',
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
      },
    );
  }
  return { token, owner };
}
