/**
 * The retry policy of spec 1 §7.2: 408/504 and 500/502/503 back off and are retried only when the
 * call is idempotent (or carries an idempotency key); 429 was not processed, so it is retried
 * for any method when its Retry-After fits in `maxTotalWaitMs`; a paid POST is never retried blindly.
 */
export interface RetryPolicy {
  maxRetries: number;
  /** Upper bound on the time a call spends, attempts and waits together, before its next retry starts. */
  maxTotalWaitMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 2,
  maxTotalWaitMs: 30_000,
  baseDelayMs: 400,
  maxDelayMs: 8_000,
};

const BACKOFF_STATUSES = new Set([408, 500, 502, 503, 504]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export function isIdempotent(method: string, hasIdempotencyKey: boolean): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase()) || hasIdempotencyKey;
}

/** A server asking for more than a day is misconfigured; its hint is capped there. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

type HeaderValue = string | string[] | undefined;

/**
 * The one reader of a server's "ask again later" hint, for errors and for polls alike:
 * `retry-after-ms` when present, else `Retry-After` as seconds (fractions allowed) or an HTTP date.
 * Undefined when absent or unreadable; never negative, never over a day.
 */
export function retryAfterMs(headers: Record<string, HeaderValue>, now = Date.now()): number | undefined {
  const first = (value: HeaderValue) => (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
  const cap = (ms: number) => Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined && Number.isFinite(Number(ms))) return cap(Number(ms));
  const raw = first(headers['retry-after']);
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return cap(seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : cap(date - now);
}

export type Outcome =
  | { kind: 'status'; status: number; retryAfterMs?: number }
  | { kind: 'network' /** true when nothing reached the server (connection refused). */; notSent: boolean };

/** How long to wait before the next attempt, or undefined to give up now. */
export function nextDelay(
  outcome: Outcome,
  attempt: number,
  idempotent: boolean,
  waitedMs: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.maxRetries) return undefined;
  let delay: number;
  if (outcome.kind === 'network') {
    if (!idempotent && !outcome.notSent) return undefined;
    delay = backoff(attempt, policy, random);
  } else if (outcome.status === 429) {
    delay = outcome.retryAfterMs ?? backoff(attempt, policy, random);
  } else if (BACKOFF_STATUSES.has(outcome.status)) {
    if (!idempotent) return undefined;
    delay = Math.max(outcome.retryAfterMs ?? 0, backoff(attempt, policy, random));
  } else {
    return undefined;
  }
  return waitedMs + delay > policy.maxTotalWaitMs ? undefined : delay;
}

/** Capped exponential backoff with full jitter in its upper half. */
function backoff(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
