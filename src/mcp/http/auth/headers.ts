import type { IncomingMessage } from 'node:http';

/** A request header's value; a repeated header gives its first. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
