import { BudgetExceededError } from './errors.js';

/**
 * An upper bound on what paid calls may spend, per process over stdio and per session over HTTP
 * (`--max-spend-usd`). Every paid result's cost is added up; a paid call is refused before it is
 * sent when the budget is spent, or when the platform's pre-charge estimate would pass it.
 */
export class SpendBudget {
  /** Protected: a budget shared by replicas reads it back from the store. */
  protected spentUsd = 0;

  constructor(readonly limitUsd?: number) {}

  /** Throws before a paid call that the budget cannot cover (`estimateUsd` when the price is known). */
  ensure(estimateUsd = 0): void {
    if (this.limitUsd === undefined) return;
    const left = this.limitUsd - this.spentUsd;
    if (left <= 0 || estimateUsd > left + 1e-9) {
      throw new BudgetExceededError(
        `This call would pass the spend budget: ${round(this.spentUsd)} of ${this.limitUsd} USD spent, ${round(Math.max(0, left))} USD left${estimateUsd ? `, this call is estimated at ${round(estimateUsd)} USD` : ''}.`,
        {
          fix: 'Nothing was sent. Raise --max-spend-usd (ORBIT_MAX_SPEND_USD) or start a new session to spend more.',
          details: { limit_usd: this.limitUsd, spent_usd: round(this.spentUsd) },
        },
      );
    }
  }

  record(usd: number | undefined): void {
    if (usd !== undefined && Number.isFinite(usd) && usd > 0) this.spentUsd += usd;
  }

  state(): { limit_usd?: number; spent_usd: number; left_usd?: number } {
    return {
      ...(this.limitUsd !== undefined ? { limit_usd: this.limitUsd } : {}),
      spent_usd: round(this.spentUsd),
      ...(this.limitUsd !== undefined ? { left_usd: round(Math.max(0, this.limitUsd - this.spentUsd)) } : {}),
    };
  }
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
