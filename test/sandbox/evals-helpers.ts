import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested reply fields
export type Reply = Record<string, any>;

export const EVALS = '/api/v1/evals';

/** A client for one key, speaking JSON to the evaluation routes. */
export function evalClient(sb: () => Sandbox, key: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sb().url}${EVALS}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Reply };
  };
  return {
    key,
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}
export type EvalClient = ReturnType<typeof evalClient>;

/** The common error envelope (spec 1 §7.1) with the given type and code. */
export const commonError = (type: string, code: string | null, param?: string) => ({
  error: {
    message: expect.any(String),
    type,
    code,
    ...(param === undefined ? {} : { param }),
  },
});

/** What chat completions answers for these messages: the text and the price (an independent source). */
export async function chatAnswer(
  sb: Sandbox,
  key: string,
  model: string,
  messages: { role: string; content: string }[],
): Promise<{ text: string; cost: number }> {
  const res = await fetch(`${sb.url}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages }),
  });
  const body = (await res.json()) as Reply;
  return { text: body.choices[0].message.content, cost: body.x_orbit_pricing.cost };
}
