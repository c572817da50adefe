import { z } from 'zod';
import type { SandboxState } from '../state.js';
import { nextNumber } from './store.js';

/**
 * The sandbox's deterministic judge, used by `llm_judge` and `pairwise_llm` scorers. It does not
 * read the judge prompt's wording (the prompt is checked when the scorer is made); it scores by
 * word coverage, so a test can recompute every judgement by hand:
 *
 * - words(text): the distinct lowercased runs of letters and digits in the text.
 * - reference: the row's `expected_output` when it has one, else the row's `input`.
 * - coverage(answer) = |words(reference) ∩ words(answer)| / |words(reference)|, rounded to two
 *   decimals (1 when the reference has no words).
 * - llm_judge score = coverage(output); passed when score >= config.pass_threshold.
 * - pairwise_llm compares the output with each other candidate's output for the same row (with a
 *   single candidate, with `expected_output`): higher coverage wins 1, equal 0.5, lower 0; the score
 *   is the mean, rounded to two decimals.
 *
 * Judge calls fail on purpose, so tests can see failed scores: every judge call on a row whose
 * input contains `fail-judge`, and the calls chosen with `POST /__sandbox/evals/judge-faults`.
 */

const JUDGE_FAIL_TRIGGER = /\bfail-judge\b/i;

const WORD = /[\p{L}\p{N}]+/gu;

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(WORD) ?? []);
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

export interface Coverage {
  score: number;
  matched: string[];
  missing: string[];
}

export function coverage(answer: string, reference: string): Coverage {
  const wanted = [...words(reference)];
  const have = words(answer);
  const matched = wanted.filter((w) => have.has(w));
  const missing = wanted.filter((w) => !have.has(w));
  return { score: wanted.length === 0 ? 1 : round2(matched.length / wanted.length), matched, missing };
}

const list = (items: string[]): string => {
  const shown = items.slice(0, 8).join(', ');
  return items.length > 8 ? `${shown} and ${items.length - 8} more` : shown;
};

export function judgeReasoning(result: Coverage, referenceName: string): string {
  const total = result.matched.length + result.missing.length;
  let text = `The answer covers ${result.matched.length} of ${total} words of the ${referenceName}`;
  if (result.missing.length > 0) text += `; missing: ${list(result.missing)}`;
  return `${text}. Score ${result.score}.`;
}

export interface Verdict {
  score: number;
  reasoning: string;
}

/** Pairwise: the output against each opponent, by coverage of the reference. */
export function pairwise(
  output: string,
  opponents: string[],
  reference: string,
  referenceName: string,
): Verdict {
  const mine = coverage(output, reference).score;
  let points = 0;
  const parts: string[] = [];
  for (const opponent of opponents) {
    const theirs = coverage(opponent, reference).score;
    const point = mine > theirs ? 1 : mine === theirs ? 0.5 : 0;
    points += point;
    parts.push(`${point === 1 ? 'won' : point === 0.5 ? 'tied' : 'lost'} ${mine} vs ${theirs}`);
  }
  const score = round2(points / opponents.length);
  return {
    score,
    reasoning: `Compared by coverage of the ${referenceName} against ${opponents.length} other answer(s): ${parts.join('; ')}. Score ${score}.`,
  };
}

/** Judge faults set through the control route: after `after` good calls, `times` calls fail. */
export const JudgeFaultSpec = z.strictObject({
  after: z.number().int().min(0).default(0),
  times: z.number().int().positive().default(1),
  /** Only judge calls of experiments made with this API key. */
  key: z.string().optional(),
  message: z.string().min(1).optional(),
});
export type JudgeFault = z.output<typeof JudgeFaultSpec> & { id: string };

const FAULTS = 'evals.judge-faults';

export function addJudgeFault(state: SandboxState, spec: z.input<typeof JudgeFaultSpec>): string {
  const id = `judgefault_${nextNumber(state, 'judgefault_')}`;
  state.collection<JudgeFault>(FAULTS).set(id, { ...JudgeFaultSpec.parse(spec), id });
  return id;
}

export function listJudgeFaults(state: SandboxState): JudgeFault[] {
  return [...state.collection<JudgeFault>(FAULTS).values()];
}

export function clearJudgeFaults(state: SandboxState): number {
  const faults = state.collection<JudgeFault>(FAULTS);
  const count = faults.size;
  faults.clear();
  return count;
}

/** Called once per judge call: the failure message when this call is to fail. */
export function judgeFailure(state: SandboxState, owner: string, input: string): string | undefined {
  if (JUDGE_FAIL_TRIGGER.test(input)) return 'The judge model returned no score for this row (fail-judge).';
  const faults = state.collection<JudgeFault>(FAULTS);
  for (const fault of faults.values()) {
    if (fault.key !== undefined && fault.key !== owner) continue;
    if (fault.after > 0) {
      fault.after -= 1;
      return undefined;
    }
    fault.times -= 1;
    if (fault.times <= 0) faults.delete(fault.id);
    return fault.message ?? 'The judge model returned no score (sandbox judge fault).';
  }
  return undefined;
}
