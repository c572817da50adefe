/**
 * Errors the sandbox replies with, rendered in the envelope of the route they happen on
 * (spec 1 §7.1 lists six envelopes; the image API adds a seventh).
 */
export type Envelope = 'common' | 'messages' | 'legacy' | 'batch' | 'data' | 'teams' | 'image';

export interface SandboxErrorInit {
  type?: string;
  code?: string;
  param?: string;
  /** Replaces the rendered envelope verbatim (e.g. the legacy 402 or the x402 challenge). */
  body?: unknown;
  headers?: Record<string, string>;
}

export class SandboxError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly body: unknown;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, init: SandboxErrorInit = {}) {
    super(message);
    this.status = status;
    this.type = init.type ?? typeForStatus(status);
    this.code = init.code;
    this.param = init.param;
    this.body = init.body;
    this.headers = init.headers ?? {};
  }
}

export const badRequest = (message: string, code: string, param?: string): SandboxError =>
  new SandboxError(400, message, { code, param });

export function typeForStatus(status: number): string {
  if (status === 400 || status === 413 || status === 422) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'payment_required';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 503) return 'service_unavailable';
  if (status === 500) return 'server_error';
  return 'api_error';
}

const TEAM_CODES: Record<number, string> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'INVALID_INPUT',
  429: 'RATE_LIMITED',
};

export function renderError(error: SandboxError, envelope: Envelope): unknown {
  if (error.body !== undefined) return error.body;
  const { status, message, type, code, param } = error;
  switch (envelope) {
    case 'messages':
      return { type: 'error', error: { type, message, ...(param ? { param } : {}) } };
    case 'legacy':
      return { error: message, status, ...(code ? { code } : {}) };
    case 'batch':
      return { error: status, message };
    case 'teams': {
      // Team codes are upper-case; a shared error (fault, unknown route) gets the status's team code.
      const teamCode = code && /^[A-Z_]+$/.test(code) ? code : (TEAM_CODES[status] ?? 'INTERNAL_ERROR');
      return { code: teamCode, message, details: null, status };
    }
    case 'image':
      return {
        error: { message, type, code: code ?? null, ...(param ? { parameter: param } : {}) },
        code: code ?? null,
      };
    default:
      return { error: { message, type, code: code ?? null, ...(param ? { param } : {}) } };
  }
}
