import { randomUUID } from 'node:crypto';
import { BudgetExceededError } from '../errors.js';
import { MemoryStore } from '../store/memory.js';
import type { LedgerState, LedgerStep, Store } from '../store/store.js';

/** A call's reservation outlives any call (timeouts, waits), so a crashed one frees it in time. */
const CALL_RESERVATION_MS = 30 * 60_000;
/** A job whose cost the platform never reports keeps its reservation this long (or the window, if longer). */
const JOB_RESERVATION_MS = 24 * 3_600_000;

const NANO = 1e9;
const toNano = (usd: number) => Math.max(0, Math.round(usd * NANO));
const toUsd = (nano: number) => Math.round(nano / 1e3) / 1e6;

/** What a paid call may cost, and where that figure comes from (said when the call is refused). */
export interface Price {
  usd: number;
  /** e.g. "the catalog's price of 0.006 USD per search", "a ceiling of 0.5 USD per call of chat". */
  basis: string;
  /** How to ask for less so the call fits `leftUsd` (a chat's max_tokens), said when it is refused. */
  less?(leftUsd: number): string;
  /**
   * The smaller call that `leftUsd` pays for (a chat given no max_tokens), tried once before the
   * call is refused; undefined when the call cannot be made smaller.
   */
  fit?(leftUsd: number): Price | undefined;
  /**
   * Arguments the budget chose so the call fits what is left (a chat's max_tokens): sent in place
   * of the caller's, and `said` in the result.
   */
  shaped?: { args: Record<string, unknown>; said: string };
}

/** What is held for one paid call until it settles or is released. */
export interface Reservation {
  readonly id: string;
  /** The call's real cost is known: spent grows by it and the reservation goes. */
  settle(usd: number | undefined): Promise<void>;
  /** The call's cost comes later (a job): keep `usd` reserved under the job's own id until then. */
  defer(jobId: string, usd: number, spentNowUsd?: number): Promise<void>;
  /** Nothing was spent (the call failed before the platform charged). */
  release(): Promise<void>;
}

export interface BudgetState {
  limit_usd?: number;
  spent_usd: number;
  reserved_usd: number;
  left_usd?: number;
  /** When the spent figure starts again at 0 (HTTP budgets; stdio lasts as long as the process). */
  window_resets_at?: string;
}

/**
 * An upper bound on what paid calls may spend (`--max-spend-usd`): per process over stdio, per
 * key over HTTP (every session, both protocol eras and, through the store, every replica). A paid
 * call reserves what it may cost before it is sent, in one atomic step of the ledger against what
 * is left; after the reply the reservation settles to the real cost, and a failure releases it.
 * A job whose cost comes later keeps its reservation under the job's id until whoever learns the
 * cost (any tool, any replica) settles it.
 */
export class SpendBudget {
  constructor(
    readonly limitUsd: number | undefined,
    private readonly ledger: { store: Store; key: string } = { store: new MemoryStore(), key: 'budget' },
    private readonly windowMs = Number.MAX_SAFE_INTEGER / 4,
    /** True when the window restarts (shown in usage_get); false for a process-long budget. */
    private readonly windowed = false,
  ) {}

  /** Reserves `price` before a paid call, or throws, saying spent, reserved and left; nothing is sent. */
  async reserve(price: Price): Promise<Reservation> {
    const held = await this.attempt(price);
    if ('state' in held) throw this.refusal(held.state, price);
    return held.reservation;
  }

  /**
   * Shapes before it refuses: reserves `price`, or when that does not fit what is left, the
   * smaller call `price.fit` makes of it (each attempt one atomic step); the price reserved comes back.
   */
  async reserveShaped(price: Price): Promise<{ reservation: Reservation; price: Price }> {
    const first = await this.attempt(price);
    if ('reservation' in first) return { reservation: first.reservation, price };
    const smaller = price.fit?.(this.view(first.state).left_usd ?? 0);
    if (!smaller) throw this.refusal(first.state, price);
    const second = await this.attempt(smaller);
    if ('state' in second) throw this.refusal(second.state, smaller);
    return { reservation: second.reservation, price: smaller };
  }

  private async attempt(price: Price): Promise<{ reservation: Reservation } | { state: LedgerState }> {
    const id = randomUUID();
    // Without a limit nothing can be refused, so nothing is held: the call counts once, when it
    // settles (one ledger step per paid call instead of two, a round trip less on Redis).
    if (this.limitUsd === undefined) return { reservation: this.reservation(id, false) };
    const state = await this.step({
      op: 'reserve',
      id,
      amount: toNano(price.usd),
      limit: toNano(this.limitUsd),
      ttlMs: CALL_RESERVATION_MS,
    });
    return state.ok ? { reservation: this.reservation(id, true) } : { state };
  }

  /** What ends a call's reservation, once; `held` is false when nothing was reserved (no limit). */
  private reservation(id: string, held: boolean): Reservation {
    let done = false;
    const once = async (step?: DistributiveOmit<LedgerStep, 'windowMs'>) => {
      if (done) return;
      done = true;
      if (step) await this.step(step);
    };
    return {
      id,
      // Nothing held and nothing spent: nothing to write.
      settle: (usd) => once(held || usd ? { op: 'settle', id, amount: toNano(usd ?? 0) } : undefined),
      defer: (jobId, usd, spentNowUsd = 0) =>
        once({
          op: 'settle',
          id,
          amount: toNano(spentNowUsd),
          // Held at least as long as the window, or a longer window would let its money go round again.
          keep: {
            id: jobKey(jobId),
            amount: toNano(usd),
            ttlMs: Math.max(JOB_RESERVATION_MS, this.windowMs),
          },
        }),
      release: () => once(held ? { op: 'release', id } : undefined),
    };
  }

  /**
   * A job's cost is known (or it failed: 0): its reservation settles, wherever it was made. Counted
   * only while the reservation is held, so two readers of one finished job count it once, and a job
   * counted when its call returned is not counted again.
   */
  async settleJob(jobId: string, usd: number | undefined): Promise<void> {
    await this.step({ op: 'settle', id: jobKey(jobId), amount: toNano(usd ?? 0), ifHeld: true });
  }

  /**
   * Counts money already moved, which must not be refused (an x402 payment the person made):
   * spent grows even past the limit.
   */
  async count(usd: number | undefined): Promise<void> {
    if (usd === undefined || !(usd > 0)) return;
    await this.step({ op: 'settle', id: '', amount: toNano(usd) });
  }

  async state(): Promise<BudgetState> {
    return this.view(await this.step({ op: 'read' }));
  }

  private step(step: DistributiveOmit<LedgerStep, 'windowMs'>): Promise<LedgerState> {
    return this.ledger.store.ledger(this.ledger.key, { ...step, windowMs: this.windowMs } as LedgerStep);
  }

  private view(state: LedgerState): BudgetState {
    const spent = toUsd(state.spent);
    const reserved = toUsd(state.reserved);
    return {
      ...(this.limitUsd !== undefined ? { limit_usd: this.limitUsd } : {}),
      spent_usd: spent,
      reserved_usd: reserved,
      ...(this.limitUsd !== undefined
        ? { left_usd: toUsd(Math.max(0, toNano(this.limitUsd) - state.spent - state.reserved)) }
        : {}),
      ...(this.windowed
        ? { window_resets_at: new Date(state.windowStart + this.windowMs).toISOString() }
        : {}),
    };
  }

  private refusal(state: LedgerState, price: Price): BudgetExceededError {
    const view = this.view(state);
    const resets = view.window_resets_at ? ` The budget starts again at ${view.window_resets_at}.` : '';
    return new BudgetExceededError(
      `This call would pass the spend budget: ${view.spent_usd} USD spent and ${view.reserved_usd} USD reserved of ${this.limitUsd} USD, ${view.left_usd} USD left; this call reserves ${toUsd(toNano(price.usd))} USD (${price.basis}).`,
      {
        fix: `Nothing was sent. ${price.less?.(view.left_usd ?? 0) ?? 'Ask for less'}, wait for running paid calls to settle, or raise --max-spend-usd (ORBIT_MAX_SPEND_USD).${resets}`,
        details: { ...view, call_reserves_usd: toUsd(toNano(price.usd)) },
      },
    );
  }
}

const jobKey = (jobId: string) => `job:${jobId}`;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
