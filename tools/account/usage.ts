import { z } from 'zod';
import type { ToolContext } from '../../src/context.js';
import { explainRefusal } from '../../src/credential-refusal.js';
import { howToGet } from '../../src/credentials.js';
import { isOrbitError } from '../../src/errors.js';
import { NumberLike } from '../../src/replies/number.js';

/**
 * Subscription usage from both routes of spec 1: the API-key route (§2.6, §4.4: operations) and,
 * when a management token is configured, the management route (§2.5, §4.3: input tokens and
 * images, token-based trials). Fractions become percentages, `resetAt` a time and "in 5 h", and a
 * counter the platform could not look up (`degraded`) stays unknown, never zero. The spend budget
 * of this process or session sits beside the platform's figures.
 */

const count = NumberLike.nullish();
const Window = z.looseObject({ used: count, remaining: count, percentUsed: count, resetAt: count });
const Period = z.looseObject({ currentPeriodEnd: z.string().nullish() }).optional();

/** Spec 2 §2.6 marks no field as always present: each is read when it comes, else shown as unknown. */
export const KeyUsage = z.looseObject({
  active: z.boolean().optional().catch(undefined),
  state: z.string().optional().catch(undefined),
  limits: z.looseObject({ daily: count, monthly: count }).optional().catch(undefined),
  daily: Window.nullish().catch(undefined),
  monthly: Window.nullish().catch(undefined),
  period: Period.catch(undefined),
  graceUntil: z.string().nullish().catch(undefined),
});

const Quota = Window.nullish();
export const ManagementUsage = z.looseObject({
  active: z.boolean(),
  state: z.string(),
  limits: z.looseObject({ dailyInputTokens: count, weeklyInputTokens: count, dailyImages: count }).nullish(),
  dailyInputTokens: Quota,
  weeklyInputTokens: Quota,
  dailyImages: Quota,
  // Sent only when a lookup failed (the platform's reference, issue 32).
  degraded: z.boolean().optional(),
  period: Period,
  usageUnits: z.string().optional(),
  tokenLimits: z.looseObject({ total: count }).nullish(),
  tokens: Quota,
});

/** One quota as a person reads it; null means unknown (or, for a limit, not configured). */
const QuotaRow = z.object({
  unit: z.string(),
  used: z.number().nullable(),
  limit: z.number().nullable(),
  remaining: z.number().nullable(),
  percent_used: z.number().nullable(),
  resets_at: z.string().nullable(),
  resets_in: z.string().nullable(),
});
type QuotaRow = z.infer<typeof QuotaRow>;

/** What readUsage builds; the tool lists a smaller shape (tokens are paid per turn). */
export const Usage = z.object({
  state: z.string().optional(),
  active: z.boolean().optional(),
  grace_until: z.string().nullish(),
  period_end: z.string().nullish(),
  quotas: z.record(z.string(), QuotaRow),
  degraded: z.boolean().optional(),
  notes: z.array(z.string()),
  budget: z.object({
    limit_usd: z.number().optional(),
    spent_usd: z.number(),
    reserved_usd: z.number(),
    left_usd: z.number().optional(),
    window_resets_at: z.string().optional(),
  }),
});
export type Usage = z.infer<typeof Usage>;

/** The listed output shape: the quota table (rows as in `QuotaRow`) and the budget. */
export const UsageOut = z.looseObject({
  quotas: z.looseObject({}),
  budget: z.looseObject({}),
  notes: z.array(z.string()),
});

type Window = z.infer<typeof Window>;

/** "in 5 h", "in 40 min", "in 3 d"; "now" once past. */
function resetsIn(resetAt: number, now = Date.now()): string {
  const minutes = Math.round((resetAt - now) / 60_000);
  if (minutes <= 0) return 'now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `in ${hours} h` : `in ${Math.round(hours / 24)} d`;
}

function row(unit: string, window: Window | null | undefined, limit: number | null | undefined): QuotaRow {
  const resetAt = window?.resetAt ?? null;
  const known = (value: number | null | undefined) => (value === undefined ? null : value);
  return {
    unit,
    used: known(window?.used),
    limit: limit ?? null,
    remaining: known(window?.remaining),
    percent_used:
      window?.percentUsed === null || window?.percentUsed === undefined
        ? null
        : Math.round(window.percentUsed * 1000) / 10,
    resets_at: resetAt === null ? null : new Date(resetAt).toISOString(),
    resets_in: resetAt === null ? null : resetsIn(resetAt),
  };
}

/** Both routes, each optional: what one says stands even when the other fails. */
export async function readUsage(ctx: Pick<ToolContext, 'api' | 'credentials' | 'budget'>): Promise<Usage> {
  const out: Usage = { quotas: {}, notes: [], budget: await ctx.budget.state() };
  const failures: unknown[] = [];
  const byKey = ctx.api
    .request({ method: 'GET', path: '/api/subscription/v1/usage', schema: KeyUsage })
    .catch((error: unknown) => {
      throw explainRefusal(error, { credential: 'api_key' });
    });
  const byToken = ctx.credentials.get('management_token')
    ? ctx.api
        .request({
          method: 'GET',
          path: '/api/management/v1/subscription/usage',
          credential: 'management_token',
          schema: ManagementUsage,
        })
        .catch((error: unknown) => {
          throw explainRefusal(error, { credential: 'management_token', scope: 'usage:read' });
        })
    : undefined;
  const [key, token] = await Promise.allSettled([byKey, byToken ?? Promise.resolve(undefined)]);

  if (key.status === 'fulfilled') {
    const u = key.value.data;
    Object.assign(out, {
      state: u.state,
      active: u.active,
      grace_until: u.graceUntil ?? null,
      period_end: u.period?.currentPeriodEnd ?? null,
    });
    out.quotas.daily_operations = row('operations', u.daily, u.limits?.daily);
    out.quotas.monthly_operations = row('operations', u.monthly, u.limits?.monthly);
  } else {
    failures.push(key.reason);
    out.notes.push(`Operations (API-key route) unavailable: ${describe(key.reason)}`);
  }

  if (token.status === 'fulfilled' && token.value) {
    const u = token.value.data;
    out.state ??= u.state;
    out.active ??= u.active;
    out.period_end ??= u.period?.currentPeriodEnd ?? null;
    if (u.degraded !== undefined) out.degraded = u.degraded;
    const quotas = [
      ['daily_input_tokens', 'input tokens', u.dailyInputTokens, u.limits?.dailyInputTokens],
      ['weekly_input_tokens', 'input tokens', u.weeklyInputTokens, u.limits?.weeklyInputTokens],
      ['daily_images', 'images', u.dailyImages, u.limits?.dailyImages],
    ] as const;
    for (const [name, unit, window, limit] of quotas) {
      // Null means not configured, unless a lookup failed and a limit exists: then it is unknown.
      if (window || (u.degraded && limit !== null && limit !== undefined))
        out.quotas[name] = row(unit, window, limit);
    }
    if (u.usageUnits === 'tokens' || u.tokens)
      out.quotas.trial_tokens = row('tokens', u.tokens, u.tokenLimits?.total);
    if (u.degraded)
      out.notes.push('Some quota lookups are unavailable right now: their counters are unknown, not zero.');
  } else if (token.status === 'rejected') {
    failures.push(token.reason);
    out.notes.push(`Input-token and image quotas (management route) unavailable: ${describe(token.reason)}`);
  } else {
    out.notes.push(
      `Input-token and image quotas need a management token with usage:read. ${howToGet(ctx.credentials, 'management_token')}`,
    );
  }
  // Nothing came back at all: the first failure is the answer.
  if (key.status === 'rejected' && !(token.status === 'fulfilled' && token.value)) throw failures[0];
  return out;
}

function describe(error: unknown): string {
  if (!isOrbitError(error)) return error instanceof Error ? error.message : String(error);
  return `${error.message}${error.fix ? ` ${error.fix}` : ''}`;
}

const NAMES: Record<string, string> = {
  daily_operations: 'Daily operations',
  monthly_operations: 'Monthly operations',
  daily_input_tokens: 'Daily input tokens',
  weekly_input_tokens: 'Weekly input tokens',
  daily_images: 'Daily images',
  trial_tokens: 'Trial tokens',
};
const n = (value: number) => value.toLocaleString('en-US');

/** A few lines a person can read at a glance. */
export function usageText(result: z.infer<typeof UsageOut>): string {
  const parsed = Usage.safeParse(result);
  if (!parsed.success) return JSON.stringify(result);
  const u = parsed.data;
  const lines = [
    `Subscription: ${u.state ?? 'unknown'}${u.grace_until ? ` (grace until ${u.grace_until})` : ''}${u.period_end ? `, period ends ${u.period_end}` : ''}`,
  ];
  for (const [name, q] of Object.entries(u.quotas)) {
    const used =
      q.used === null
        ? 'unknown (lookup unavailable)'
        : `${n(q.used)}${q.limit !== null ? ` of ${n(q.limit)}` : ''} ${q.unit} used${q.percent_used !== null ? ` (${q.percent_used}%)` : ''}${q.remaining !== null ? `, ${n(q.remaining)} left` : ''}`;
    const reset = q.resets_at ? `, resets ${q.resets_at} (${q.resets_in})` : '';
    lines.push(`${NAMES[name] ?? name}: ${used}${reset}`);
  }
  const b = u.budget;
  lines.push(
    b.limit_usd === undefined
      ? `Spend budget: none set (--max-spend-usd); ${b.spent_usd} USD spent by this server so far.`
      : `Spend budget: ${b.spent_usd} of ${b.limit_usd} USD spent, ${b.left_usd} USD left.`,
  );
  if (b.reserved_usd > 0)
    lines.push(`Reserved for paid calls and jobs whose cost is not known yet: ${b.reserved_usd} USD.`);
  if (b.window_resets_at) lines.push(`The budget starts again at ${b.window_resets_at}.`);
  return [...lines, ...u.notes].join('\n');
}
