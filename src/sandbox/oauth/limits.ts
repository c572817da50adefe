import type { Context } from 'hono';
import { SandboxError } from '../errors.js';
import { type KeyGrant, type KeyRecord, toNanos } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/** The limits an OAuth grant puts on its key: expiry, browser origins, and the app spend cap. */

const DAY_MS = 86_400_000;
type Period = NonNullable<KeyGrant['spendCap']>['period'];

/** Number of the cap period `now` falls in: UTC days, weeks from Monday, calendar months. */
export function capWindow(period: Period, now: number): number {
  const day = Math.floor(now / DAY_MS);
  if (period === 'daily') return day;
  // 1970-01-01 was a Thursday; shifting by 3 days makes weeks start on Monday.
  if (period === 'weekly') return Math.floor((day + 3) / 7);
  const date = new Date(now);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

export function windowEnd(period: Period, window: number): number {
  if (period === 'daily') return (window + 1) * DAY_MS;
  if (period === 'weekly') return ((window + 1) * 7 - 3) * DAY_MS;
  return Date.UTC(Math.floor((window + 1) / 12), (window + 1) % 12, 1);
}

/** Refuses an expired key, or a browser request from an origin the grant does not cover. */
export function assertGrantUsable(c: Context<SandboxEnv>, ctx: SandboxContext, record: KeyRecord): void {
  const grant = record.grant;
  if (!grant) return;
  if (grant.expiresAt !== undefined && grant.expiresAt <= ctx.now()) {
    throw new SandboxError(401, 'This API key has expired.', {
      type: 'authentication_error',
      code: 'invalid_api_key',
    });
  }
  const origin = c.req.header('origin');
  if (origin && !grant.origins.includes(origin)) {
    throw new SandboxError(403, `This key was issued to an app and cannot be used from ${origin}.`, {
      code: 'origin_not_allowed',
    });
  }
}

/** Refuses a charge that would take the app past its spend cap for the current period. */
export function assertSpendCap(ctx: SandboxContext, record: KeyRecord, nanos: number): void {
  const cap = record.grant?.spendCap;
  if (!cap || nanos <= 0) return;
  const window = capWindow(cap.period, ctx.now());
  if (cap.window !== window) {
    cap.window = window;
    cap.spentNanos = 0;
  }
  if (cap.spentNanos + nanos <= toNanos(cap.usd)) return;
  const seconds = Math.max(1, Math.ceil((windowEnd(cap.period, window) - ctx.now()) / 1000));
  throw new SandboxError(
    429,
    cap.usd === 0
      ? 'The app spend cap of this key is 0 USD, which blocks paid requests.'
      : `The ${cap.period} app spend cap of ${cap.usd} USD for this key is reached.`,
    { type: 'rate_limit_error', code: 'app_spend_cap_exceeded', headers: { 'Retry-After': String(seconds) } },
  );
}

export function recordSpend(record: KeyRecord, nanos: number): void {
  const cap = record.grant?.spendCap;
  if (cap) cap.spentNanos += nanos;
}
