import { SpendBudget } from '../../../budget.js';
import type { Credential } from '../../../credentials.js';
import { type Store, storeKey } from '../../../store/store.js';
import { fingerprint } from '../../../tenant.js';

/** How long a budget shared by replicas remembers what was spent (from the first spend). */
const SHARED_BUDGET_TTL_MS = 30 * 24 * 3_600_000;
const MAX_BUDGETS = 10_000;

/** A spend budget whose spending every replica adds to and reads back before a call. */
class SharedBudget extends SpendBudget {
  constructor(
    limitUsd: number | undefined,
    private readonly store: Store,
    private readonly key: string,
  ) {
    super(limitUsd);
  }

  override record(usd: number | undefined): void {
    if (usd === undefined || !Number.isFinite(usd) || usd <= 0) return;
    super.record(usd);
    this.store.add(this.key, usd, SHARED_BUDGET_TTL_MS).catch(() => {});
  }

  async refresh(): Promise<void> {
    const spent = Number((await this.store.get(this.key)) ?? 0);
    if (Number.isFinite(spent)) this.spentUsd = Math.max(this.spentUsd, spent);
  }
}

/**
 * The `--max-spend-usd` budgets of the HTTP endpoint: one per key for stateless calls, one per
 * 2025 session. In memory they are this process's (a session's is made with its server); with a
 * shared store every replica adds to the same ones and reads them back before each request.
 */
export class SpendBudgets {
  private readonly budgets = new Map<string, SpendBudget>();

  constructor(
    private readonly limitUsd: number | undefined,
    private readonly store: Store,
  ) {}

  forKey(keyFingerprint: string): SpendBudget {
    return this.get(storeKey('budget-key', keyFingerprint));
  }

  /** A session's budget; undefined in memory (the session's server keeps its own). */
  forSession(sessionId: string | undefined): SpendBudget | undefined {
    if (!this.store.shared || sessionId === undefined) return undefined;
    return this.get(storeKey('budget-session', sessionId));
  }

  /** Before a request: what every replica has spent on its key and session so far. */
  async refresh(credential: Credential, sessionId: string | undefined): Promise<void> {
    if (this.limitUsd === undefined || !this.store.shared) return;
    const budgets = [this.forKey(fingerprint(credential)), this.forSession(sessionId)];
    await Promise.all(
      budgets.map((budget) => (budget instanceof SharedBudget ? budget.refresh() : undefined)),
    );
  }

  private get(key: string): SpendBudget {
    let budget = this.budgets.get(key);
    if (!budget) {
      budget = this.store.shared
        ? new SharedBudget(this.limitUsd, this.store, key)
        : new SpendBudget(this.limitUsd);
      this.budgets.set(key, budget);
      if (this.budgets.size > MAX_BUDGETS) this.budgets.delete(this.budgets.keys().next().value!);
    }
    return budget;
  }
}
