/**
 * One error hierarchy for everything that can go wrong between a tool and the platform, with a
 * closed set of codes: one code per class (as undici does), so a test or a model can rely on the
 * code, and every error carries a `fix` (one sentence: what to do next) and, where there was a
 * reply, the platform's request id.
 */
import type { NextCall } from './next-call.js';

export type ErrorCode =
  // The caller's side: arguments, credentials, configuration.
  | 'invalid_input'
  | 'missing_credential'
  | 'no_platform'
  | 'budget_exceeded'
  | 'rate_exceeded'
  | 'sign_in_required'
  | 'sign_in_pending'
  | 'sign_in_declined'
  | 'sign_in_failed'
  // The platform said no (by HTTP status).
  | 'bad_request'
  | 'unauthorized'
  | 'insufficient_balance'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'spend_capped'
  | 'upstream_timeout'
  | 'server_error'
  | 'api_error'
  // The exchange broke, or its content is not what the spec says.
  | 'connection_failed'
  | 'timeout'
  | 'upstream_invalid'
  | 'stream_incomplete'
  | 'stream_error'
  | 'job_failed'
  | 'aborted'
  // A call stopped with the replica that ran it (HTTP, several replicas).
  | 'interrupted'
  // Ours.
  | 'output_invalid'
  | 'internal_error';

export interface OrbitErrorOptions {
  status?: number;
  requestId?: string;
  upstreamCode?: string;
  upstreamType?: string;
  param?: string;
  fix?: string;
  retryAfterMs?: number;
  details?: Record<string, unknown>;
  /** The call that goes on from here, as data (rendered as a sentence with the error's text). */
  next?: NextCall;
  cause?: unknown;
}

export abstract class OrbitError extends Error {
  abstract readonly code: ErrorCode;
  readonly status?: number;
  readonly requestId?: string;
  readonly upstreamCode?: string;
  readonly upstreamType?: string;
  readonly param?: string;
  readonly fix?: string;
  readonly retryAfterMs?: number;
  readonly details?: Record<string, unknown>;
  readonly next?: NextCall;

  constructor(message: string, options: OrbitErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.requestId = options.requestId;
    this.upstreamCode = options.upstreamCode;
    this.upstreamType = options.upstreamType;
    this.param = options.param;
    this.fix = options.fix;
    this.retryAfterMs = options.retryAfterMs;
    this.details = options.details;
    this.next = options.next;
  }
}

/** Arguments given to a tool that cannot work; nothing was sent upstream. */
export class InputError extends OrbitError {
  readonly code = 'invalid_input';
}

/** The tool needs a credential that is not configured. */
export class MissingCredentialError extends OrbitError {
  readonly code = 'missing_credential';
}

/** No platform address is configured, so there is nothing to call. */
export class NoPlatformError extends OrbitError {
  readonly code = 'no_platform';
}

/** A paid call would pass the spend budget set for this process or session. */
export class BudgetExceededError extends OrbitError {
  readonly code = 'budget_exceeded';
}

/** The caller sent more calls than this server takes from one key (its own limit, not the platform's). */
export class RateExceededError extends OrbitError {
  readonly code = 'rate_exceeded';
}

/** Sign-in is needed; the person must open the link. */
export class SignInRequiredError extends OrbitError {
  readonly code = 'sign_in_required';
}
/** Sign-in started and is not approved yet. */
export class SignInPendingError extends OrbitError {
  readonly code = 'sign_in_pending';
}
/** The person declined to sign in. */
export class SignInDeclinedError extends OrbitError {
  readonly code = 'sign_in_declined';
}
/** Sign-in could not be started or was refused. */
export class SignInFailedError extends OrbitError {
  readonly code = 'sign_in_failed';
}

/** An HTTP error reply from the platform, parsed from any of the six envelopes; a status of its own. */
export class ApiError extends OrbitError {
  readonly code: ErrorCode = 'api_error';
}
/** The same error (class, status, request id, what the platform said) with another fix. */
export function withFix(error: ApiError, fix: string): ApiError {
  const Kind = error.constructor as new (message: string, options: OrbitErrorOptions) => ApiError;
  return new Kind(error.message, {
    status: error.status,
    requestId: error.requestId,
    upstreamCode: error.upstreamCode,
    upstreamType: error.upstreamType,
    param: error.param,
    retryAfterMs: error.retryAfterMs,
    details: error.details,
    cause: error,
    fix,
  });
}

export class BadRequestError extends ApiError {
  override readonly code = 'bad_request';
}
export class AuthenticationError extends ApiError {
  override readonly code = 'unauthorized';
}
export class PaymentRequiredError extends ApiError {
  override readonly code = 'insufficient_balance';
  get requiredBalance(): number | undefined {
    const value = this.details?.requiredBalance;
    return typeof value === 'number' ? value : undefined;
  }
}
export class PermissionError extends ApiError {
  override readonly code = 'forbidden';
}
export class NotFoundError extends ApiError {
  override readonly code = 'not_found';
}
export class ConflictError extends ApiError {
  override readonly code = 'conflict';
}
export class PayloadTooLargeError extends ApiError {
  override readonly code = 'payload_too_large';
}
export class RateLimitError extends ApiError {
  override readonly code = 'rate_limited';
}
/** The key's own spend cap on the platform (its settings, or the app cap set at sign-in) stops paid calls. */
export class SpendCapError extends ApiError {
  override readonly code = 'spend_capped';
}
export class UpstreamTimeoutError extends ApiError {
  override readonly code = 'upstream_timeout';
}
export class ServerError extends ApiError {
  override readonly code = 'server_error';
}

/** The connection could not be made, or broke before a whole reply arrived. */
export class ConnectionError extends OrbitError {
  readonly code = 'connection_failed';
}

/** The platform did not answer within the configured time. */
export class TimeoutError extends OrbitError {
  readonly code = 'timeout';
}

/**
 * The platform's reply is not what the spec says (not JSON, a field missing or of the wrong type,
 * an unreadable stream chunk). Not the caller's fault: the fix says to report it with the request id.
 */
export class UpstreamInvalidError extends OrbitError {
  readonly code = 'upstream_invalid';
  /** Set when the reply was a 2xx: the platform accepted the request, whatever its body says. */
  readonly reply?: UnreadableReply;
  constructor(message: string, options: OrbitErrorOptions & { reply?: UnreadableReply } = {}) {
    super(message, options);
    this.reply = options.reply;
  }
}

/** A 2xx reply that could not be read: its status, and its body as far as it could be read. */
export interface UnreadableReply {
  status: number;
  /** The JSON as parsed, or the start of a body that is not JSON. */
  body: unknown;
}

/** A stream ended before its terminal marker. */
export class StreamIncompleteError extends OrbitError {
  readonly code = 'stream_incomplete';
}

/** The platform reported an error in the middle of a stream. */
export class StreamFailedError extends OrbitError {
  readonly code = 'stream_error';
}

/** A long job (video, speech, transcription, evaluation) ended in failure. */
export class JobFailedError extends OrbitError {
  readonly code = 'job_failed';
}

/** The caller cancelled the request. */
export class AbortedError extends OrbitError {
  readonly code = 'aborted';
  constructor(message = 'The request was cancelled.', options: OrbitErrorOptions = {}) {
    super(message, options);
  }
}

/** The server replica running the call stopped before the call recorded a job another could continue. */
export class InterruptedError extends OrbitError {
  readonly code = 'interrupted';
}

/** A tool's own result did not match its declared output schema: a bug in this server. */
export class OutputInvalidError extends OrbitError {
  readonly code = 'output_invalid';
}

/** Anything else: unexpected, reported by its message only. */
export class InternalError extends OrbitError {
  readonly code = 'internal_error';
}

export function isOrbitError(error: unknown): error is OrbitError {
  return error instanceof OrbitError;
}

/** The sentence for replies that break the spec: not the caller's fault, and worth a report. */
export const REPORT_UPSTREAM =
  'This is not your fault: the platform sent something this server cannot read. Call again; if it repeats, report it with the request id.';

/**
 * True when a 404 says the route itself is absent, so an older route of the spec may serve the
 * call instead; false for a 404 about the model (`model_not_found`), which no other route fixes.
 * Nothing was charged either way: the platform refused the request.
 */
export function routeMissing(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError && error.upstreamCode !== 'model_not_found';
}
