import type { ServerResponse } from 'node:http';
import { HEADER_MISMATCH } from '../../standard-headers.js';

/** Why the endpoint refused a request: the `data.reason` of the body, one word a client can test. */
export type RefusalCode =
  | 'bad_request'
  | 'header_mismatch'
  | 'parse_error'
  | 'invalid_toolsets'
  | 'unauthorized'
  | 'invalid_token'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'session_not_found'
  | 'too_large'
  | 'too_many_requests'
  | 'rate_exceeded'
  | 'session_limit'
  | 'draining'
  | 'internal_error';

/** JSON-RPC error codes where the spec names one; every other refusal is -32000 (server error). */
const RPC_CODES: Partial<Record<RefusalCode, number>> = {
  parse_error: -32700,
  internal_error: -32603,
  // The SDK's own code for an unknown session, which clients recognise.
  session_not_found: -32001,
  // The SDK's code for Mcp-Method / Mcp-Name headers that disagree with the body (standard-headers.ts).
  header_mismatch: HEADER_MISMATCH,
};

/**
 * The one writer of an HTTP refusal: every one has the same JSON-RPC body
 * (`{ jsonrpc, id: null, error: { code, message, data: { reason } } }`), so a client reads them
 * one way. `headers` carries what belongs with it: WWW-Authenticate on a 401, Retry-After; `data`
 * what a client can act on beside the reason (how long to wait).
 */
export function refuse(
  res: ServerResponse,
  status: number,
  code: RefusalCode,
  message: string,
  headers: Record<string, string> = {},
  data: Record<string, string | number> = {},
): void {
  const body = {
    jsonrpc: '2.0',
    id: null,
    error: { code: RPC_CODES[code] ?? -32000, message, data: { reason: code, ...data } },
  };
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
