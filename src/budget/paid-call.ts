import { mayHaveCharged } from '../upstream/failure.js';
import type { Price, Reservation, SpendBudget } from './ledger.js';
import { ceilingFor } from './prices.js';

/**
 * What a tool that spends says about money (`cost` in `defineTool`): what a call cost, read from
 * its result; what it may cost, reserved before it is sent; and a cost that comes later. `Context`
 * is the tool's context (src/context.ts), named by the tool layer so money does not reach up to it.
 */
export interface ToolCost<Args, Result, Context> {
  /** What a paid call cost in USD, read from its result; added up against the spend budget. */
  spent(result: Result): number | undefined;
  /**
   * What a paid call may cost, reserved before it is sent (a catalog price, the model's pricing
   * for the requested size); undefined leaves the tool's stated ceiling (src/budget/prices.ts).
   */
  price?(args: Args, ctx: Context): Promise<Price | undefined> | Price | undefined;
  /**
   * A result whose cost comes later (a job still running): its id and what stays reserved for it
   * (default: what the call reserved). The job's cost settles it when a later call learns it.
   */
  deferred?(result: Result): { jobId: string; usd?: number } | undefined;
}

/** What the budget adds to a paid call's answer: lines after its text, fields beside its result's own. */
interface CostNotes {
  lines: string[];
  fields?: Record<string, unknown>;
}

/** A paid call between its reservation and its end; each of `succeeded` and `failed` ends it once. */
export interface PaidCall {
  /** What to send: the caller's arguments, or those the budget chose so the call fits (a chat's max_tokens). */
  readonly args: Record<string, unknown>;
  /** The run ended with a result that checked: settle, defer or count; what the answer must add. */
  succeeded(result: unknown): Promise<CostNotes>;
  /**
   * The run failed. When the platform may have charged (`reached`: the run ended, or a write of it
   * was accepted; or the error says so) what was reserved is kept as spent and comes back;
   * otherwise it is released.
   */
  failed(error: unknown, reached: boolean): Promise<number | undefined>;
}

export interface PaidCallHooks {
  /** Before anything is reserved (the HTTP endpoint's paid-call rate): throws to refuse the call. */
  before?: () => Promise<void>;
  /** The reservation as the call's record sees it, with what it holds (src/mcp/call-record.ts). */
  watch?: (reservation: Reservation, reservedUsd: number) => Reservation;
}

/**
 * The paid-call step: reserves what the call may cost (its price, or the tool's stated ceiling)
 * before it is sent, or the smaller call the budget can pay for; then ends the reservation by what
 * became of the call.
 */
export async function reservePaidCall<Context>(
  budget: SpendBudget,
  tool: { name: string; cost?: ToolCost<Record<string, unknown>, unknown, Context> },
  args: Record<string, unknown>,
  ctx: Context,
  hooks: PaidCallHooks = {},
): Promise<PaidCall> {
  await hooks.before?.();
  const limited = budget.limitUsd !== undefined;
  const cost = tool.cost;
  // Without a limit nothing can be refused: the tool's ceiling stands in and no price is looked up
  // (a video's price is a catalog read).
  const asked = (limited ? await cost?.price?.(args, ctx) : undefined) ?? ceilingFor(tool.name);
  const held = await budget.reserveShaped(asked);
  const price = held.price;
  // Without a limit the budget holds nothing, so nothing is recorded as reserved.
  const reservation = hooks.watch?.(held.reservation, limited ? price.usd : 0) ?? held.reservation;
  return {
    args: price.shaped ? { ...args, ...price.shaped.args } : args,
    async succeeded(result) {
      const costLine = await settle(reservation, cost, result, price, limited);
      const lines = [price.shaped?.said, costLine].filter((line) => line !== undefined);
      return { lines, ...(price.shaped ? { fields: { shaped_by_budget: price.shaped.args } } : {}) };
    },
    async failed(error, reached) {
      // A failure after the platform may have charged (or accepted the call) keeps what was
      // reserved as spent; so does a run that ended with a result we cannot check.
      if (!(reached || mayHaveCharged(error))) return void (await reservation.release());
      await reservation.settle(price.usd);
      return price.usd;
    },
  };
}

/**
 * Settles to the result's cost; a job still running keeps a reservation for its cost; a result
 * that states no cost (the call did reach the platform) keeps what was reserved as spent. Returns
 * what the text must say when the result itself states no cost.
 */
async function settle(
  reservation: Reservation,
  cost: ToolCost<never, unknown, never> | undefined,
  result: unknown,
  price: Price,
  limited: boolean,
): Promise<string | undefined> {
  const spent = cost?.spent(result);
  const later = cost?.deferred?.(result);
  if (later && spent === undefined) {
    const held = later.usd ?? price.usd;
    await reservation.defer(later.jobId, held);
    return `Cost: known when it finishes${limited ? `; ${usd(held)} USD is held against the spend budget until then` : ''}.`;
  }
  if (spent !== undefined && Number.isFinite(spent))
    return void (await reservation.settle(Math.max(0, spent)));
  // Counted as what was reserved: the platform may well have charged it.
  await reservation.settle(limited ? price.usd : 0);
  return `Cost: not stated by the platform${limited ? `; ${usd(price.usd)} USD counted against the spend budget (what this call reserved)` : ''}.`;
}

const usd = (amount: number) => Math.round(amount * 1e6) / 1e6;
