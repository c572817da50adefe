/**
 * One error hierarchy for everything that can go wrong between a tool and the platform.
 * Every error has a stable string `code` (for tests and for models), an optional upstream
 * request id (for support), and a `fix`: one sentence that says what to do next.
 */

export interface OrbitErrorOptions {
  status?: number;
  requestId?: string;
  upstreamCode?: string;
  upstreamType?: string;
  param?: string;
  fix?: string;
  retryAfterMs?: number;
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class OrbitError extends Error {
  readonly code: string;
  readonly status?: number;
  readonly requestId?: string;
  readonly upstreamCode?: string;
  readonly upstreamType?: string;
  readonly param?: string;
  readonly fix?: string;
  readonly retryAfterMs?: number;
  readonly details?: Record<string, unknown>;

  constructor(code: string, message: string, options: OrbitErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = options.status;
    this.requestId = options.requestId;
    this.upstreamCode = options.upstreamCode;
    this.upstreamType = options.upstreamType;
    this.param = options.param;
    this.fix = options.fix;
    this.retryAfterMs = options.retryAfterMs;
    this.details = options.details;
  }
}

/** Arguments given to a tool that cannot work; nothing was sent upstream. */
export class InputError extends OrbitError {
  constructor(message: string, options: OrbitErrorOptions = {}) {
    super('invalid_input', message, options);
  }
}

/** The tool needs a credential that is not configured. */
export class MissingCredentialError extends OrbitError {
  constructor(message: string, options: OrbitErrorOptions = {}) {
    super('missing_credential', message, options);
  }
}

/** The tool is disabled by configuration (read-only mode, toolset off). */
export class ForbiddenByConfigError extends OrbitError {
  constructor(message: string, options: OrbitErrorOptions = {}) {
    super('disabled_by_config', message, options);
  }
}

/** An HTTP error reply from the platform, parsed from any of the six envelopes. */
export class ApiError extends OrbitError {}
export class BadRequestError extends ApiError {}
export class AuthenticationError extends ApiError {}
export class PaymentRequiredError extends ApiError {
  get requiredBalance(): number | undefined {
    const value = this.details?.requiredBalance;
    return typeof value === 'number' ? value : undefined;
  }
}
export class PermissionError extends ApiError {}
export class NotFoundError extends ApiError {}
export class ConflictError extends ApiError {}
export class PayloadTooLargeError extends ApiError {}
export class RateLimitError extends ApiError {}
export class UpstreamTimeoutError extends ApiError {}
export class ServerError extends ApiError {}

/** The connection failed or timed out before a reply arrived. */
export class ConnectionError extends OrbitError {}

/** The platform replied with a body that does not match the spec. */
export class ResponseValidationError extends OrbitError {}

/** A stream ended badly: an error chunk, or EOF without a terminal marker. */
export class StreamError extends OrbitError {}

/** The caller cancelled the request. */
export class AbortedError extends OrbitError {
  constructor(message = 'The request was cancelled.', options: OrbitErrorOptions = {}) {
    super('aborted', message, options);
  }
}

/** A bounded wait ran out; details carry the job id and the tool to call next. */
export class DeadlineError extends OrbitError {}

export function isOrbitError(error: unknown): error is OrbitError {
  return error instanceof OrbitError;
}
