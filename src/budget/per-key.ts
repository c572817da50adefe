import { type Store, storeKey } from '../store/store.js';
import { SpendBudget } from './ledger.js';

/**
 * The `--max-spend-usd` budgets of the HTTP endpoint: one per key (the tenant), shared by all its
 * sessions, both protocol eras and, through a shared store, every replica, over `--budget-window`.
 * Each budget is its ledger in the store, so nothing here caches what was spent.
 */
export class SpendBudgets {
  constructor(
    private readonly limitUsd: number | undefined,
    private readonly store: Store,
    private readonly windowMs: number,
  ) {}

  forKey(keyFingerprint: string): SpendBudget {
    return new SpendBudget(
      this.limitUsd,
      { store: this.store, key: storeKey('budget', keyFingerprint) },
      this.windowMs,
      true,
    );
  }
}
