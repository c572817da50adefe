import type { IncomingMessage } from 'node:http';
import { header } from './headers.js';

/**
 * The address a request's per-address limits count against. Behind `trustedHops` proxies of the
 * operator's own, it is the one the outermost of them was reached from: the `trustedHops`-th entry
 * of X-Forwarded-For from the right (each proxy appends its peer). Entries further left are the
 * client's own to write, so they are never read, and with no trusted hops the header is ignored:
 * else any client could escape its limits by sending a new one each time.
 */
export function clientAddress(req: IncomingMessage, trustedHops: number): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (trustedHops <= 0) return peer;
  // Node joins repeated X-Forwarded-For headers with commas, in order.
  const entries = header(req, 'x-forwarded-for')?.split(',') ?? [];
  return entries[entries.length - trustedHops]?.trim() || peer;
}
