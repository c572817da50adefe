import type { SandboxContext } from '../types.js';
import { answer } from './candidate.js';
import { type Experiment, scoreIndex, TERMINAL, traceIndex } from './experiment.js';
import { asText } from './input.js';
import { judgeFailure } from './judge.js';
import { applyScorer } from './scoring.js';

/**
 * How an experiment runs on the sandbox clock. It is `queued` for `evalQueueMs`, then
 * `in_progress` while its work units run one after another, each taking `evalStepMs`; then
 * `completed`. A work unit is one candidate trace or one score, so a run has
 * items x candidates x (scorers + 1) of them, the spec's work units (spec 2 §8). Row by row, every
 * candidate answers first, then each candidate's answer gets each scorer (pairwise judges need
 * all the answers to the row).
 *
 * Work is done when it falls due, the next time any evaluation route of the owning key is called,
 * in timeline order; so results, charges and judge faults do not depend on how often anyone polls.
 * A trace that cannot be paid for fails the experiment (`failed`, with the charge's error) and
 * stops it; a cancelled experiment runs nothing more and charges nothing more.
 */

const DEFAULTS = { evalQueueMs: 500, evalStepMs: 100 };

export function evalTiming(ctx: SandboxContext): { queueMs: number; stepMs: number } {
  return {
    queueMs: ctx.timing.evalQueueMs ?? DEFAULTS.evalQueueMs,
    stepMs: ctx.timing.evalStepMs ?? DEFAULTS.evalStepMs,
  };
}

export const workUnits = (items: number, candidates: number, scorers: number): number =>
  items * candidates * Math.max(1, scorers + 1);

type Step =
  | { kind: 'trace'; item: number; candidate: number }
  | { kind: 'score'; item: number; candidate: number; scorer: number };

function stepAt(exp: Experiment, n: number): Step {
  const c = exp.candidates.length;
  const s = exp.scorers.length;
  const perItem = c * (s + 1);
  const item = Math.floor(n / perItem);
  const r = n % perItem;
  if (r < c) return { kind: 'trace', item, candidate: r };
  return { kind: 'score', item, candidate: Math.floor((r - c) / s), scorer: (r - c) % s };
}

/** Brings the experiment up to the sandbox clock. */
export function refresh(ctx: SandboxContext, exp: Experiment): void {
  if (TERMINAL.includes(exp.status)) return;
  const start = exp.createdAt + exp.queueMs;
  const now = ctx.now();
  if (now < start) return;
  if (exp.status === 'queued') {
    exp.status = 'in_progress';
    exp.startedAt = start;
  }
  const total = workUnits(exp.items.length, exp.candidates.length, exp.scorers.length);
  const due = exp.stepMs <= 0 ? total : Math.min(total, Math.floor((now - start) / exp.stepMs));
  while (exp.stepsDone < due && exp.status === 'in_progress') {
    runStep(ctx, exp, stepAt(exp, exp.stepsDone), start + (exp.stepsDone + 1) * exp.stepMs);
    exp.stepsDone += 1;
  }
  if (exp.status === 'in_progress' && exp.stepsDone === total) {
    exp.status = 'completed';
    exp.completedAt = start + total * exp.stepMs;
  }
}

function runStep(ctx: SandboxContext, exp: Experiment, step: Step, at: number): void {
  const item = exp.items[step.item]!;
  const candidate = exp.candidates[step.candidate]!;
  const ti = traceIndex(exp, step.item, step.candidate);
  if (step.kind === 'trace') {
    const trace = answer(ctx, exp, item, candidate, traceId(exp, ti), at);
    exp.traces[ti] = trace;
    if (trace.status === 'failed') {
      exp.status = 'failed';
      exp.completedAt = at;
      exp.error = trace.error;
    }
    return;
  }
  const trace = exp.traces[ti];
  const si = scoreIndex(exp, step.item, step.candidate, step.scorer);
  // A failed trace has already stopped the run, so this only guards the types.
  if (!trace || trace.output === null) return;
  const input = asText(item.input) ?? '';
  const opponents = exp.candidates
    .map((_, c) =>
      c === step.candidate ? null : (exp.traces[traceIndex(exp, step.item, c)]?.output ?? null),
    )
    .filter((output): output is string => output !== null);
  exp.scores[si] = applyScorer({
    scorer: exp.scorers[step.scorer]!,
    input,
    expected: asText(item.expected_output),
    trace: { ...trace, output: trace.output },
    opponents,
    candidateCount: exp.candidates.length,
    judgeFailure: () => judgeFailure(ctx.state, exp.owner, input),
  });
}

/** `evaltrace_<experiment number>_<nnn>`, stable for a given experiment. */
const traceId = (exp: Experiment, index: number): string =>
  `${exp.id.replace('evalexp_', 'evaltrace_')}_${String(index + 1).padStart(3, '0')}`;

/** Stops a running experiment; false when it had already ended. */
export function cancel(ctx: SandboxContext, exp: Experiment): boolean {
  refresh(ctx, exp);
  if (TERMINAL.includes(exp.status)) return false;
  exp.status = 'cancelled';
  exp.cancelledAt = ctx.now();
  return true;
}
