import type { Context } from 'hono';
import { SandboxError } from './errors.js';
import { findManagementToken } from './management/tokens.js';
import { assertGrantUsable, assertSpendCap, recordSpend } from './oauth/limits.js';
import { type KeyRecord, toNanos } from './state.js';
import type { SandboxContext, SandboxEnv } from './types.js';
import { roundUsd } from './util.js';

/**
 * Auth, per-key daily limits and charging, shared by every route so each area behaves the same
 * way (spec 1 §5, §7.2, §7.3).
 */

/** The API key from `Authorization: Bearer` or `x-api-key`, if any. */
export function presentedKey(c: Context<SandboxEnv>): string | undefined {
  const auth = c.req.header('authorization');
  const bearer = auth?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return bearer ?? c.req.header('x-api-key')?.trim() ?? undefined;
}

export const missingKeyError = (): SandboxError =>
  new SandboxError(401, 'Missing API key: send `Authorization: Bearer <key>` or `x-api-key: <key>`.', {
    type: 'authentication_error',
    code: 'missing_api_key',
  });

/** Requires a valid key and counts the request against its daily request limit. */
export function requireKey(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  options: { onlyApiKeyHeader?: boolean } = {},
): KeyRecord {
  const key = options.onlyApiKeyHeader ? c.req.header('x-api-key')?.trim() : presentedKey(c);
  if (!key && options.onlyApiKeyHeader && presentedKey(c)) {
    throw new SandboxError(401, 'This route takes the API key in `x-api-key`, not `Authorization`.', {
      type: 'authentication_error',
      code: 'missing_api_key',
    });
  }
  if (!key) throw missingKeyError();
  const record = ctx.state.getKey(key);
  if (!record) {
    // Management tokens work on the management API only (spec 1 §4.3); say which credential to use.
    const message = findManagementToken(ctx.state, key)
      ? 'This is a management token; it works only on the management API. Inference, data, usage and batch routes take an API key.'
      : 'Invalid API key.';
    throw invalidKey(message);
  }
  if (record.disabled) throw invalidKey('This API key is disabled.');
  if (record.expiresAt !== undefined && record.expiresAt <= ctx.now())
    throw invalidKey('This API key has expired.');
  assertGrantUsable(c, ctx, record);
  if (record.dailyRequestLimit !== undefined && record.requestsToday >= record.dailyRequestLimit) {
    throw dailyLimitError(
      ctx,
      'daily_rpd_limit_exceeded',
      `Daily request limit of ${record.dailyRequestLimit} reached for this API key.`,
    );
  }
  record.requestsToday += 1;
  return record;
}

const invalidKey = (message: string): SandboxError =>
  new SandboxError(401, message, { type: 'authentication_error', code: 'invalid_api_key' });

/** A valid key when one is presented; never fails (catalog routes work without auth). */
export function optionalKey(c: Context<SandboxEnv>, ctx: SandboxContext): KeyRecord | undefined {
  const key = presentedKey(c);
  return key ? ctx.state.getKey(key) : undefined;
}

/** Debits the key's account, or fails with the legacy 402 or a daily-USD 429. */
export function charge(ctx: SandboxContext, record: KeyRecord, usd: number): void {
  const nanos = toNanos(usd);
  if (record.dailyUsdLimit !== undefined && record.spentTodayNanos + nanos > toNanos(record.dailyUsdLimit)) {
    throw dailyLimitError(
      ctx,
      'daily_usd_limit_exceeded',
      `Daily spend limit of ${record.dailyUsdLimit} USD reached for this API key.`,
    );
  }
  assertSpendCap(ctx, record, nanos);
  if (record.account.balanceNanos < nanos) {
    throw new SandboxError(402, 'Insufficient balance', {
      body: { error: 'Insufficient balance', requiredBalance: roundUsd(usd), status: 402 },
    });
  }
  record.account.balanceNanos -= nanos;
  record.spentTodayNanos += nanos;
  record.spentTotalNanos += nanos;
  recordSpend(record, nanos);
}

/** Gives a charge back (failed jobs, content-policy rejections after acceptance). */
export function refund(record: KeyRecord, usd: number): void {
  const nanos = toNanos(usd);
  record.account.balanceNanos += nanos;
  record.spentTodayNanos = Math.max(0, record.spentTodayNanos - nanos);
  record.spentTotalNanos = Math.max(0, record.spentTotalNanos - nanos);
}

function dailyLimitError(ctx: SandboxContext, code: string, message: string): SandboxError {
  const seconds = Math.max(1, Math.ceil(ctx.state.msUntilMidnightUtc() / 1000));
  return new SandboxError(429, `${message} It resets at 00:00 UTC.`, {
    type: 'rate_limit_error',
    code,
    headers: { 'Retry-After': String(seconds) },
  });
}
