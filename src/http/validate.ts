import type { z } from 'zod';
import { ResponseValidationError } from './errors.js';

/** Validates an upstream reply at the boundary and names the first field that was wrong. */
export function validateReply<S extends z.ZodType>(
  schema: S,
  value: unknown,
  requestId: string | undefined,
  route: string,
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : '(body)';
  throw new ResponseValidationError(
    'unexpected_response',
    `The platform's reply from ${route} did not match the spec at \`${field}\`: ${issue?.message ?? 'invalid'}.`,
    {
      requestId,
      fix: 'This is a platform fault or a version mismatch; call again, or report it with the request id.',
    },
  );
}
