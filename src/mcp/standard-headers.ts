/**
 * The `Mcp-Method` / `Mcp-Name` request headers (SEP-2243) checked against the body on the 2025
 * path. The SDK checks them on 2026-07-28 requests and, by design, never on legacy traffic; yet a
 * gateway in front may route or allow by these headers whatever the era, so a request whose headers
 * say one thing and whose body does another is refused here too, in the SDK's words and code.
 */
import type { IncomingMessage } from 'node:http';

/** The body field `Mcp-Name` mirrors, per method (the SDK's table for the core methods). */
const NAME_SOURCE: Record<string, 'name' | 'uri'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};
/** JSON-RPC code the SDK answers a header/body disagreement with (HeaderMismatch). */
export const HEADER_MISMATCH = -32020;
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

const headerOf = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
};

/** A header value as sent, or the text inside its `=?base64?…?=` sentinel (undefined: malformed). */
function decoded(value: string): string | undefined {
  if (!value.startsWith('=?base64?')) return value;
  const match = SENTINEL.exec(value);
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : undefined;
}

/** What disagrees between the headers and a single request's body, or undefined when nothing does. */
export function headerMismatch(req: IncomingMessage, body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (typeof method !== 'string') return undefined;
  const methodHeader = headerOf(req, 'mcp-method');
  if (methodHeader !== undefined && methodHeader !== method) {
    return `the body names method ${method} but the Mcp-Method header names ${methodHeader}`;
  }
  const nameHeader = headerOf(req, 'mcp-name');
  const field = Object.hasOwn(NAME_SOURCE, method) ? NAME_SOURCE[method] : undefined;
  if (nameHeader === undefined || field === undefined) return undefined;
  const value = params && typeof params === 'object' ? (params as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'string') return undefined;
  const named = decoded(nameHeader);
  if (named === undefined) return 'the Mcp-Name header carries an invalid Base64 sentinel value';
  return named === value
    ? undefined
    : `the body carries params.${field}="${value}" but the Mcp-Name header names "${named}"`;
}
