import type { PersonHandle } from '../../src/sandbox/accounts/fixtures.js';
import { SANDBOX_PEOPLE, sessionCookie } from '../../src/sandbox/accounts/fixtures.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/** Requests as the seeded people, by session cookie or bearer secret. */

export const asSession = (handle: PersonHandle): Record<string, string> => ({
  cookie: sessionCookie(SANDBOX_PEOPLE[handle].session),
});

export const bearer = (secret: string): Record<string, string> => ({ authorization: `Bearer ${secret}` });

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON, typed like `Response.json()`'s result so assertions stay short. */
  body: Awaited<ReturnType<Response['json']>>;
}

export async function send(
  sb: Sandbox,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined
      ? {}
      : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
