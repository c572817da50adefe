import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY,
  isIdempotent,
  MAX_RETRY_AFTER_MS,
  nextDelay,
  type RetryPolicy,
  retryAfterMs,
} from '../../../src/upstream/retry.js';

const policy: RetryPolicy = { maxRetries: 3, maxTotalWaitMs: 30_000, baseDelayMs: 400, maxDelayMs: 8_000 };
const top = () => 1;
const bottom = () => 0;

describe('isIdempotent', () => {
  it('treats GET, HEAD, OPTIONS, PUT and DELETE as idempotent in any case', () => {
    for (const method of ['GET', 'head', 'Options', 'PUT', 'delete'])
      expect(isIdempotent(method, false)).toBe(true);
  });

  it('treats POST and PATCH as unsafe unless they carry an idempotency key', () => {
    expect(isIdempotent('POST', false)).toBe(false);
    expect(isIdempotent('PATCH', false)).toBe(false);
    expect(isIdempotent('POST', true)).toBe(true);
  });
});

describe('retryAfterMs', () => {
  const ra = (value: string | string[] | undefined, now?: number) =>
    retryAfterMs({ 'retry-after': value }, now);

  it('reads seconds, including fractions', () => {
    expect(ra('3')).toBe(3000);
    expect(ra('1.5')).toBe(1500);
    expect(ra('0')).toBe(0);
  });

  it('prefers retry-after-ms to Retry-After', () => {
    expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '3' })).toBe(250);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(ra('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
  });

  it('clamps a date in the past and a negative number to zero, and a hint past a day to a day', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(ra('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
    expect(ra('-5')).toBe(0);
    expect(ra('999999999')).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs({ 'retry-after-ms': '1e12' })).toBe(MAX_RETRY_AFTER_MS);
  });

  it('takes the first value of a repeated header', () => {
    expect(ra(['2', '9'])).toBe(2000);
  });

  it('returns undefined when absent, blank or unreadable', () => {
    expect(ra(undefined)).toBeUndefined();
    expect(ra('')).toBeUndefined();
    expect(ra('  ')).toBeUndefined();
    expect(ra('soon')).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });
});

describe('nextDelay', () => {
  it.each([500, 502, 503, 504, 408])('retries a GET after HTTP %i', (status) => {
    const delay = nextDelay({ kind: 'status', status }, 0, true, 0, policy, top);
    expect(delay).toBe(400);
  });

  it.each([500, 502, 503, 504, 408])('does not retry a POST after HTTP %i', (status) => {
    expect(nextDelay({ kind: 'status', status }, 0, false, 0, policy, top)).toBeUndefined();
  });

  it('retries a POST with an idempotency key after a 503', () => {
    const idempotent = isIdempotent('POST', true);
    expect(nextDelay({ kind: 'status', status: 503 }, 0, idempotent, 0, policy, top)).toBe(400);
  });

  it.each([400, 401, 402, 403, 404, 409, 413, 422])('never retries HTTP %i', (status) => {
    expect(nextDelay({ kind: 'status', status }, 0, true, 0, policy, top)).toBeUndefined();
  });

  it('retries a GET after a 503 and honours a longer Retry-After', () => {
    expect(nextDelay({ kind: 'status', status: 503, retryAfterMs: 5_000 }, 0, true, 0, policy, top)).toBe(
      5_000,
    );
  });

  it('waits at least the backoff when Retry-After is shorter', () => {
    expect(nextDelay({ kind: 'status', status: 503, retryAfterMs: 10 }, 0, true, 0, policy, top)).toBe(400);
  });

  it('retries a 429 on a POST when Retry-After fits the total wait, waiting exactly that long', () => {
    expect(nextDelay({ kind: 'status', status: 429, retryAfterMs: 2_000 }, 0, false, 0, policy, top)).toBe(
      2_000,
    );
    expect(nextDelay({ kind: 'status', status: 429, retryAfterMs: 0 }, 0, false, 0, policy, top)).toBe(0);
  });

  it('retries a 429 without Retry-After after a backoff', () => {
    expect(nextDelay({ kind: 'status', status: 429 }, 1, false, 0, policy, top)).toBe(800);
  });

  it('gives up on a 429 whose Retry-After exceeds maxTotalWaitMs (a daily limit)', () => {
    const untilMidnight = 6 * 3_600_000;
    expect(
      nextDelay({ kind: 'status', status: 429, retryAfterMs: untilMidnight }, 0, true, 0, policy, top),
    ).toBeUndefined();
  });

  it('gives up when the wait would push the total past maxTotalWaitMs', () => {
    const outcome = { kind: 'status', status: 429, retryAfterMs: 10_000 } as const;
    expect(nextDelay(outcome, 1, true, 20_000, policy, top)).toBe(10_000);
    expect(nextDelay(outcome, 1, true, 20_001, policy, top)).toBeUndefined();
  });

  it('retries a POST whose connection was refused, since nothing reached the server', () => {
    expect(nextDelay({ kind: 'network', notSent: true }, 0, false, 0, policy, top)).toBe(400);
  });

  it('does not retry a POST whose connection was reset, since it may have been processed', () => {
    expect(nextDelay({ kind: 'network', notSent: false }, 0, false, 0, policy, top)).toBeUndefined();
  });

  it('retries a GET whose connection was reset', () => {
    expect(nextDelay({ kind: 'network', notSent: false }, 0, true, 0, policy, top)).toBe(400);
  });

  it('stops after maxRetries attempts', () => {
    const outcome = { kind: 'status', status: 503 } as const;
    expect(nextDelay(outcome, 2, true, 0, policy, top)).toBeDefined();
    expect(nextDelay(outcome, 3, true, 0, policy, top)).toBeUndefined();
    expect(nextDelay(outcome, 0, true, 0, { ...policy, maxRetries: 0 }, top)).toBeUndefined();
  });

  it('doubles the backoff per attempt and keeps it in the upper half of the ceiling', () => {
    const outcome = { kind: 'status', status: 500 } as const;
    expect(
      [0, 1, 2, 3].map((attempt) => nextDelay(outcome, attempt, true, 0, { ...policy, maxRetries: 9 }, top)),
    ).toEqual([400, 800, 1600, 3200]);
    expect(
      [0, 1, 2, 3].map((attempt) =>
        nextDelay(outcome, attempt, true, 0, { ...policy, maxRetries: 9 }, bottom),
      ),
    ).toEqual([200, 400, 800, 1600]);
  });

  it('caps the backoff at maxDelayMs', () => {
    const wide = { ...policy, maxRetries: 20, maxTotalWaitMs: Number.POSITIVE_INFINITY };
    expect(nextDelay({ kind: 'status', status: 500 }, 10, true, 0, wide, top)).toBe(8_000);
    expect(nextDelay({ kind: 'status', status: 500 }, 15, true, 0, wide, bottom)).toBe(4_000);
  });

  it('has defaults that retry twice within 30 s in total', () => {
    expect(DEFAULT_RETRY).toMatchObject({ maxRetries: 2, maxTotalWaitMs: 30_000 });
  });
});
