/**
 * What a failed exchange with the platform means: which typed error the caller gets, and whether
 * the platform may have run (and charged) the call. The money side and the writes recorder ask
 * `mayHaveCharged` and `mayHaveReached`; the transport loop asks for the error.
 */
import {
  type ApiError,
  ConnectionError,
  type OrbitError,
  StreamFailedError,
  StreamIncompleteError,
  TimeoutError,
  UpstreamInvalidError,
  UpstreamTimeoutError,
} from '../errors.js';
import { safeJson } from '../lang.js';
import { errorFromResponse } from './envelopes.js';

/** Errors that happen before the request reaches the platform: nothing was received, nothing charged. */
const NOT_REACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * False when a failure happened before the request could reach the platform (nothing was received,
 * nothing charged); true when the platform may have received it (a timeout, a dropped connection).
 */
export function mayHaveReached(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return !(typeof cause?.code === 'string' && NOT_REACHED.has(cause.code));
}

/**
 * True when a call failed after the platform may have run it, so it may have been charged: a
 * timeout, a connection lost once the request went out, a stream cut or failed after it began, or
 * a reply that came but could not be read. A refusal (4xx), a platform error and anything that
 * happened before sending are not.
 */
export function mayHaveCharged(error: unknown): boolean {
  return (
    error instanceof TimeoutError ||
    error instanceof UpstreamTimeoutError ||
    error instanceof StreamIncompleteError ||
    error instanceof StreamFailedError ||
    error instanceof UpstreamInvalidError ||
    (error instanceof ConnectionError && mayHaveReached(error))
  );
}

/** A reply of status 400 or more, from whichever of the platform's envelopes its text is in. */
export function statusFailure(
  status: number,
  text: string,
  reply: { requestId: string | undefined; retryAfterMs: number | undefined },
): ApiError {
  return errorFromResponse(status, safeJson(text), {
    requestId: reply.requestId,
    retryAfterMs: reply.retryAfterMs,
    rawText: text,
  });
}

/**
 * What a failed exchange means for the caller. A connection that could not be made is "could not
 * reach"; one that closed after the request went out may have been received (and charged), and a
 * stream cut before its first event is an incomplete stream, not an unreachable platform.
 */
export function networkFailure(
  error: unknown,
  context: { timeoutMs: number; baseUrl: string | undefined; streaming: boolean },
): OrbitError {
  const code = (error as { code?: string }).code;
  const reason = code ?? (error as Error).message;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(`The platform did not answer within ${context.timeoutMs} ms.`, {
      cause: error,
      fix: 'Try again, or raise ORBIT_TIMEOUT_MS.',
    });
  }
  if (code !== undefined && NOT_REACHED.has(code)) {
    return new ConnectionError(`Could not reach the platform at ${context.baseUrl} (${reason}).`, {
      cause: error,
      fix: 'Check ORBIT_BASE_URL and the network, then call again.',
    });
  }
  if (context.streaming) {
    return new StreamIncompleteError(
      `The connection broke before the platform started the answer (${reason}).`,
      {
        cause: error,
        fix: 'Call again. The platform may have received the request, so a charge may have been recorded.',
      },
    );
  }
  return new ConnectionError(
    `The connection closed before the platform replied (${reason}); the request may have been received.`,
    {
      cause: error,
      fix: 'For a paid call, check your recent usage before calling again; otherwise call again.',
    },
  );
}

/** A connection that broke while a reply's body was read: a ConnectionError, never a raw socket error. */
export function readFailure(error: unknown, requestId: string | undefined): ConnectionError {
  const code = (error as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
  return new ConnectionError(`The connection broke while the reply was being read (${reason}).`, {
    requestId,
    cause: error,
    fix: 'Call again; if it keeps happening, check the network or raise ORBIT_TIMEOUT_MS.',
  });
}
