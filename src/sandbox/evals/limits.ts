import { badRequest, SandboxError } from '../errors.js';
import type { SandboxContext } from '../types.js';
import { workUnits } from './timeline.js';

/** Evaluation run limits (spec 2 §8) and the per-key run and item rate limits. */
const EVAL_LIMITS = { items: 100, candidates: 5, scorers: 10, workUnits: 100 } as const;

/**
 * The spec says exceeding the run and item rate limits gives `429` with `Retry-After` but not the
 * values; the sandbox allows, per key, 10 experiments and 500 experiment items a minute.
 */
const EVAL_RATE = { runsPerMinute: 10, itemsPerMinute: 500 } as const;

const WINDOW_MS = 60_000;

export function checkRunLimits(items: number, candidates: number, scorers: number, itemsParam: string): void {
  if (items < 1)
    throw badRequest(
      'The experiment has no items; give at least one row.',
      'invalid_parameter_value',
      itemsParam,
    );
  if (items > EVAL_LIMITS.items) {
    throw badRequest(
      `An experiment takes at most ${EVAL_LIMITS.items} items; this one has ${items}. Split the rows into ${Math.ceil(items / EVAL_LIMITS.items)} experiments.`,
      'invalid_parameter_value',
      itemsParam,
    );
  }
  if (candidates > EVAL_LIMITS.candidates) {
    throw badRequest(
      `An experiment takes at most ${EVAL_LIMITS.candidates} candidates; this one has ${candidates}.`,
      'invalid_parameter_value',
      'candidates',
    );
  }
  if (scorers > EVAL_LIMITS.scorers) {
    throw badRequest(
      `An experiment takes at most ${EVAL_LIMITS.scorers} scorers; this one has ${scorers}.`,
      'invalid_parameter_value',
      'scorer_ids',
    );
  }
  const units = workUnits(items, candidates, scorers);
  if (units > EVAL_LIMITS.workUnits) {
    const perRun = Math.floor(EVAL_LIMITS.workUnits / workUnits(1, candidates, scorers));
    throw badRequest(
      `An experiment takes at most ${EVAL_LIMITS.workUnits} work units (items x candidates x (scorers + 1)); ` +
        `this one needs ${units} (${items} x ${candidates} x ${scorers + 1}). With these candidates and scorers ` +
        `run at most ${perRun} items per experiment: split the rows into ${Math.ceil(items / perRun)} experiments.`,
      'invalid_parameter_value',
      itemsParam,
    );
  }
}

interface RunMark {
  at: number;
  items: number;
}

/**
 * Checks a run of `items` against the key's window, or answers 429 with the wait in `Retry-After`;
 * the returned function counts the run once it is accepted.
 */
export function checkRunAllowance(ctx: SandboxContext, owner: string, items: number): () => void {
  const windows = ctx.state.collection<RunMark[]>('evals.rate');
  const now = ctx.now();
  const recent = (windows.get(owner) ?? []).filter((mark) => now - mark.at < WINDOW_MS);
  windows.set(owner, recent);
  let wait: number | undefined;
  let what = '';
  if (recent.length >= EVAL_RATE.runsPerMinute) {
    wait = recent[0]!.at + WINDOW_MS - now;
    what = `${EVAL_RATE.runsPerMinute} experiments`;
  } else {
    // Drop the oldest runs until the new items fit; the last one dropped says how long to wait.
    let total = recent.reduce((sum, mark) => sum + mark.items, 0) + items;
    for (const mark of recent) {
      if (total <= EVAL_RATE.itemsPerMinute) break;
      total -= mark.items;
      wait = mark.at + WINDOW_MS - now;
    }
    if (total > EVAL_RATE.itemsPerMinute) wait = WINDOW_MS;
    what = `${EVAL_RATE.itemsPerMinute} experiment items`;
  }
  if (wait !== undefined) {
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    throw new SandboxError(429, `Rate limit: ${what} per minute per API key. Retry in ${seconds} s.`, {
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      headers: { 'Retry-After': String(seconds) },
    });
  }
  return () => {
    recent.push({ at: now, items });
  };
}
