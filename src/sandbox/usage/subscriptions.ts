import type { SubscriptionPlan } from '../accounts/fixtures.js';
import type { SandboxState } from '../state.js';

/**
 * Each account's subscription as the usage routes see it: operation allowances for the API-key
 * route (spec 1 §2.6), input-token and image quotas for the management route (§2.5), a token-based
 * trial, and which quota lookups are "unavailable" (`degraded`). Counters are set, not counted: the
 * sandbox's generation routes charge the USD balance.
 */

export const QUOTAS = ['dailyInputTokens', 'weeklyInputTokens', 'dailyImages'] as const;
export type QuotaName = (typeof QUOTAS)[number];

export interface Counter {
  limit: number;
  used: number;
}

export interface Subscription {
  state: 'active' | 'grace' | 'inactive';
  /** Epoch ms, grace only. */
  graceUntil: number | null;
  /** Epoch ms of the billing period's end, when known. */
  periodEnd: number | null;
  /** Successful subscription-covered operations (the API-key route). */
  operations: { daily: Counter; monthly: Counter };
  /** A missing quota is not configured for this plan. */
  quotas: Partial<Record<QuotaName, Counter>>;
  /** Quotas whose lookup is down: their counters are null and `degraded` is true. */
  unavailable: QuotaName[];
  /** Token-based trials only. */
  tokenTrial: Counter | null;
}

const DAY_MS = 86_400_000;
const store = (state: SandboxState) => state.collection<Subscription>('usage.subscriptions');

function startOfDay(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

/** The subscription a plan starts with; figures are fixed so replies are the same on every run. */
export function planSubscription(plan: SubscriptionPlan, now: number): Subscription {
  const periodEnd = startOfDay(now) + 20 * DAY_MS;
  const none = { daily: { limit: 0, used: 0 }, monthly: { limit: 0, used: 0 } };
  const active: Subscription = {
    state: 'active',
    graceUntil: null,
    periodEnd,
    operations: { daily: { limit: 100, used: 37 }, monthly: { limit: 2000, used: 412 } },
    quotas: {
      dailyInputTokens: { limit: 2_000_000, used: 350_000 },
      weeklyInputTokens: { limit: 10_000_000, used: 4_200_000 },
      dailyImages: { limit: 50, used: 12 },
    },
    unavailable: [],
    tokenTrial: null,
  };
  switch (plan) {
    case 'active':
      return active;
    case 'degraded':
      // Images over quota (percentUsed above 1) and the weekly lookup down.
      return {
        ...active,
        quotas: { ...active.quotas, dailyImages: { limit: 50, used: 55 } },
        unavailable: ['weeklyInputTokens'],
      };
    case 'grace':
      return {
        ...active,
        state: 'grace',
        graceUntil: startOfDay(now) + 3 * DAY_MS,
        operations: { daily: { limit: 100, used: 100 }, monthly: { limit: 2000, used: 1999 } },
      };
    case 'trial':
      return {
        state: 'active',
        graceUntil: null,
        periodEnd: startOfDay(now) + 7 * DAY_MS,
        operations: { daily: { limit: 20, used: 3 }, monthly: { limit: 20, used: 3 } },
        quotas: {},
        unavailable: [],
        tokenTrial: { limit: 100_000, used: 12_500 },
      };
    case 'inactive':
      return {
        state: 'inactive',
        graceUntil: null,
        periodEnd: null,
        operations: none,
        quotas: {},
        unavailable: [],
        tokenTrial: null,
      };
  }
}

export function subscriptionOf(state: SandboxState, accountId: string): Subscription {
  return store(state).get(accountId) ?? planSubscription('inactive', state.now());
}

export function setSubscription(state: SandboxState, accountId: string, subscription: Subscription): void {
  store(state).set(accountId, subscription);
}
