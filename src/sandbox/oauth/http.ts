import type { Context } from 'hono';
import type { SandboxEnv } from '../types.js';
import { isRecord } from '../util.js';

/**
 * OAuth endpoints answer errors in RFC 6749 form, `{error, error_description}`, with the codes
 * OAuth clients know (`invalid_request`, `invalid_grant`, `invalid_client`, ...).
 */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

function oauthErrorReply(c: Context<SandboxEnv>, error: OAuthError): Response {
  return c.json({ error: error.error, error_description: error.message }, error.status as 400, {
    'Cache-Control': 'no-store',
  });
}

/** Runs a JSON OAuth endpoint, rendering its OAuthErrors in the OAuth shape. */
export function oauthJson(handler: (c: Context<SandboxEnv>) => Response | Promise<Response>) {
  return async (c: Context<SandboxEnv>): Promise<Response> => {
    try {
      return await handler(c);
    } catch (error) {
      if (error instanceof OAuthError) return oauthErrorReply(c, error);
      throw error;
    }
  };
}

/** String parameters of a JSON object or form-encoded body (both are accepted, spec 1 §4.2). */
export function bodyParams(c: Context<SandboxEnv>): Record<string, string | undefined> {
  const type = c.req.header('content-type') ?? '';
  const text = c.get('bodyText');
  if (type.includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  const json = c.get('bodyJson');
  if (!text.trim())
    throw new OAuthError(400, 'invalid_request', 'The request body is empty; send JSON or a form.');
  if (!isRecord(json))
    throw new OAuthError(400, 'invalid_request', 'The body must be a JSON object or form-encoded.');
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(json)) {
    if (typeof value === 'string') out[key] = value;
    else if (typeof value === 'number') out[key] = String(value);
  }
  return out;
}

export function required(params: Record<string, string | undefined>, ...names: string[]): string {
  for (const name of names) {
    const value = params[name];
    if (value) return value;
  }
  throw new OAuthError(400, 'invalid_request', `${names.join(' or ')} is required.`);
}

/** `Location` for an OAuth redirect back to the app, keeping the URI's own query. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}
