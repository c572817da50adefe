import { capWindow, windowEnd } from '../oauth/limits.js';
import type { SandboxState } from '../state.js';
import { type Counter, QUOTAS, type QuotaName, subscriptionOf } from './subscriptions.js';

/** The two usage replies: management (spec 1 §2.5, tokens and images) and API key (§2.6, operations). */

type Period = 'daily' | 'weekly' | 'monthly';
const periodEnd = (period: Period, now: number): number => windowEnd(period, capWindow(period, now));
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const QUOTA_PERIOD: Record<QuotaName, Period> = {
  dailyInputTokens: 'daily',
  weeklyInputTokens: 'weekly',
  dailyImages: 'daily',
};

/** `percentUsed` is a fraction; the management route lets it pass 1, the API-key route does not. */
function quota(counter: Counter, resetAt: number, capAtOne: boolean) {
  const fraction = counter.limit > 0 ? counter.used / counter.limit : counter.used > 0 ? 1 : 0;
  return {
    used: counter.used,
    remaining: Math.max(0, counter.limit - counter.used),
    percentUsed: capAtOne ? Math.min(1, fraction) : fraction,
    resetAt,
  };
}

export function managementUsage(state: SandboxState, accountId: string) {
  const now = state.now();
  const sub = subscriptionOf(state, accountId);
  const limits: Record<string, number | null> = {};
  const quotas: Record<string, unknown> = {};
  for (const name of QUOTAS) {
    const counter = sub.quotas[name];
    limits[name] = counter?.limit ?? null;
    const resetAt = periodEnd(QUOTA_PERIOD[name], now);
    if (!counter) quotas[name] = null;
    else if (sub.unavailable.includes(name))
      quotas[name] = { used: null, remaining: null, percentUsed: null, resetAt };
    else quotas[name] = quota(counter, resetAt, false);
  }
  const trial = sub.tokenTrial;
  // `degraded` is sent only when a lookup failed (the platform's reference, issue 32).
  const degraded = sub.unavailable.some((name) => sub.quotas[name] !== undefined);
  return {
    active: sub.state !== 'inactive',
    state: sub.state,
    limits,
    ...quotas,
    ...(degraded ? { degraded: true } : {}),
    period: { currentPeriodEnd: iso(sub.periodEnd) },
    ...(trial
      ? {
          usageUnits: 'tokens',
          tokenLimits: { total: trial.limit },
          tokens: quota(trial, sub.periodEnd ?? periodEnd('monthly', now), false),
        }
      : {}),
  };
}

export function keyUsage(state: SandboxState, accountId: string) {
  const now = state.now();
  const sub = subscriptionOf(state, accountId);
  const { daily, monthly } = sub.operations;
  return {
    active: sub.state !== 'inactive',
    limits: { daily: daily.limit, monthly: monthly.limit },
    enforceDailyLimit: true,
    daily: quota(daily, periodEnd('daily', now), true),
    // Monthly usage follows the billing cycle when it is known, else the calendar month.
    monthly: quota(monthly, sub.periodEnd ?? periodEnd('monthly', now), true),
    period: sub.periodEnd === null ? {} : { currentPeriodEnd: iso(sub.periodEnd) },
    state: sub.state,
    graceUntil: iso(sub.graceUntil),
  };
}
