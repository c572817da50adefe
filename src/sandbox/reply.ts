import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { renderError, type SandboxError } from './errors.js';
import type { SandboxContext, SandboxEnv } from './types.js';

/** JSON reply for bodies typed `unknown` (error envelopes, fault overrides). */
export function jsonReply(
  c: Context<SandboxEnv>,
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return c.body(JSON.stringify(body), status as ContentfulStatusCode, {
    'Content-Type': 'application/json; charset=utf-8',
    ...headers,
  });
}

/** Renders an error in the envelope of the path it happened on. */
export function errorReply(c: Context<SandboxEnv>, ctx: SandboxContext, error: SandboxError): Response {
  return jsonReply(c, renderError(error, ctx.envelopeFor(c.req.path)), error.status, error.headers);
}
