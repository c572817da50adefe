import type { z } from 'zod';
import { REPORT_UPSTREAM, UpstreamInvalidError } from '../errors.js';
import { readReply } from '../replies/read.js';

/**
 * Validates an upstream reply at the boundary (null read as absent, numeric strings as numbers:
 * src/replies/read.ts) and names the first field that was wrong. With the reply's `status`, the
 * error keeps it and the body: a 2xx was accepted by the platform, whatever its body says.
 */
export function validateReply<S extends z.ZodType>(
  schema: S,
  value: unknown,
  requestId: string | undefined,
  route: string,
  status?: number,
): z.infer<S> {
  const parsed = readReply(schema, value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : '(body)';
  throw new UpstreamInvalidError(
    `The platform's reply from ${route} did not match the spec at \`${field}\`: ${issue?.message ?? 'invalid'}.`,
    {
      requestId,
      fix: REPORT_UPSTREAM,
      details: { field },
      ...(status !== undefined ? { reply: { status, body: value } } : {}),
    },
  );
}

/** A reply body as JSON; a body that is not JSON is the platform's fault, reported with its request id. */
export function parseJsonReply(text: string, requestId: string | undefined, status?: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const preview = text.slice(0, 120);
    throw new UpstreamInvalidError('The platform sent a reply that is not valid JSON.', {
      requestId,
      fix: REPORT_UPSTREAM,
      details: { preview },
      ...(status !== undefined ? { reply: { status, body: preview } } : {}),
    });
  }
}
