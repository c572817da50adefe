import type { Hono } from 'hono';
import { missingKeyError, presentedKey } from '../billing.js';
import { SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

const DAY_MS = 86_400_000;

/**
 * Subscription usage for an API key (spec 1 §2.6, §4.4): free, and the cheapest call that proves a
 * key is known, which the remote endpoint makes before it opens a session for a key.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.get('/api/subscription/v1/usage', (c) => {
    const key = presentedKey(c);
    if (!key) throw missingKeyError();
    const record = ctx.state.getKey(key);
    if (!record)
      throw new SandboxError(401, 'Invalid API key.', {
        type: 'authentication_error',
        code: 'invalid_api_key',
      });
    const now = ctx.now();
    const nextDay = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
    const limits = { daily: 500, monthly: 10_000 };
    const window = (limit: number, resetAt: number) => ({
      used: 0,
      remaining: limit,
      percentUsed: 0,
      resetAt,
    });
    return c.json({
      active: record.subscriber,
      limits,
      enforceDailyLimit: true,
      daily: window(limits.daily, nextDay),
      monthly: window(limits.monthly, nextDay + 29 * DAY_MS),
      period: { currentPeriodEnd: new Date(nextDay + 29 * DAY_MS).toISOString() },
      state: record.subscriber ? 'active' : 'inactive',
      graceUntil: null,
    });
  });
}
