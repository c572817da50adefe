import { SandboxError } from '../errors.js';

/**
 * Content-policy rules of the sandbox, so clients can exercise rejections on purpose:
 * a prompt or text containing `nsfw` is refused before processing (not charged), and one
 * containing `fail-render` is accepted, then fails while rendering (and is refunded).
 */
const POLICY_TRIGGER = /\bnsfw\b/i;
export const FAIL_TRIGGER = /\bfail-render\b/i;

export function violatesPolicy(text: string | undefined): boolean {
  return text !== undefined && POLICY_TRIGGER.test(text);
}

/** Refused before processing, not charged; legacy routes add the video-style error type. */
export function policyError(what: string, legacy: boolean): SandboxError {
  const message = `The ${what} was rejected by the content policy; nothing was charged.`;
  return new SandboxError(400, message, {
    code: 'content_policy_violation',
    ...(legacy
      ? {
          body: {
            error: message,
            status: 400,
            type: 'CONTENT_POLICY_VIOLATION',
            code: 'content_policy_violation',
          },
        }
      : {}),
  });
}
