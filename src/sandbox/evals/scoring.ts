import { runInNewContext } from 'node:vm';
import { z } from 'zod';
import type { ScoreResult, TraceResult } from './experiment.js';
import { coverage, judgeReasoning, pairwise, type Verdict } from './judge.js';
import type { ScorerVersion } from './store.js';

/**
 * Applies one scorer to one candidate answer. Scores are in [0, 1]; the rule-based scorers give 1
 * or 0 and pass on 1, the judges give the judge's score and pass at `pass_threshold`. The rules:
 *
 * - exact_match: output == expected_output (both trimmed when `trim`; lowercased unless
 *   `case_sensitive`).
 * - contains: output includes `config.value`, else expected_output (lowercased unless
 *   `case_sensitive`).
 * - regex: new RegExp(pattern, flags).test(output).
 * - json_schema: the trimmed output parses as JSON and validates against `schema`.
 * - threshold: the metric (`number`: the trimmed output as a number; `length`: characters of the
 *   output; `tokens`: completion tokens; `latency_ms`; `cost_usd`) lies within [min, max].
 * - llm_judge and pairwise_llm: see judge.ts.
 *
 * A scorer that needs `expected_output` fails on a row without one (`missing_expected_output`).
 */

export interface ScoreInput {
  scorer: ScorerVersion;
  input: string;
  expected: string | undefined;
  trace: TraceResult & { output: string };
  /** The other candidates' answers to the same row (pairwise_llm). */
  opponents: string[];
  candidateCount: number;
  /** Asked once per judge call: the failure message when the call is to fail. */
  judgeFailure(): string | undefined;
}

const failed = (code: string, message: string): ScoreResult => ({
  status: 'failed',
  score: null,
  passed: null,
  reasoning: null,
  error: { code, message },
});

/** A caller's pattern may backtrack for minutes: it runs with a deadline that stops it. */
const REGEX_MS = 100;

function regexTest(pattern: string, flags: string | undefined, output: string): boolean | undefined {
  try {
    return runInNewContext(
      'new RegExp(pattern, flags).test(output)',
      { pattern, flags, output },
      {
        timeout: REGEX_MS,
      },
    ) as boolean;
  } catch {
    return undefined;
  }
}

const binary = (ok: boolean, reasoning: string): ScoreResult => ({
  status: 'completed',
  score: ok ? 1 : 0,
  passed: ok,
  reasoning,
  error: null,
});

const noExpected = (type: string) =>
  failed('missing_expected_output', `The ${type} scorer needs an expected_output on the row.`);

export function applyScorer(x: ScoreInput): ScoreResult {
  const { scorer, trace } = x;
  const config = scorer.config;
  const output = trace.output;
  const fold = (s: string) => (config.case_sensitive === false ? s.toLowerCase() : s);
  switch (scorer.scorerType) {
    case 'exact_match': {
      if (x.expected === undefined) return noExpected('exact_match');
      const trim = (s: string) => (config.trim === false ? s : s.trim());
      const ok = fold(trim(output)) === fold(trim(x.expected));
      return binary(
        ok,
        ok ? 'The output equals the expected output.' : 'The output differs from the expected output.',
      );
    }
    case 'contains': {
      const needle = typeof config.value === 'string' ? config.value : x.expected;
      if (needle === undefined) return noExpected('contains');
      const ok = fold(output).includes(fold(needle));
      return binary(ok, `The output ${ok ? 'contains' : 'does not contain'} "${needle.slice(0, 80)}".`);
    }
    case 'regex': {
      const pattern = String(config.pattern);
      const ok = regexTest(pattern, typeof config.flags === 'string' ? config.flags : undefined, output);
      if (ok === undefined) {
        return binary(
          false,
          `/${pattern.slice(0, 80)}/ ran past ${REGEX_MS} ms on this output (it backtracks).`,
        );
      }
      return binary(ok, `The output ${ok ? 'matches' : 'does not match'} /${pattern.slice(0, 80)}/.`);
    }
    case 'json_schema':
      return jsonSchemaScore(output, config.schema);
    case 'threshold':
      return thresholdScore(x);
    case 'llm_judge':
    case 'pairwise_llm':
      return judgeScore(x);
  }
}

function jsonSchemaScore(output: string, schema: unknown): ScoreResult {
  let value: unknown;
  try {
    value = JSON.parse(output.trim());
  } catch {
    return binary(false, 'The output is not JSON.');
  }
  const parsed = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(value);
  if (parsed.success) return binary(true, 'The output is JSON that matches the schema.');
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return binary(false, `The output does not match the schema${where}: ${issue?.message ?? 'invalid'}.`);
}

function thresholdScore(x: ScoreInput): ScoreResult {
  const { metric, min, max } = x.scorer.config;
  const t = x.trace;
  const values: Record<string, number> = {
    number: t.output.trim() === '' ? Number.NaN : Number(t.output.trim()),
    length: t.output.length,
    tokens: t.completionTokens,
    latency_ms: t.latencyMs,
    cost_usd: t.costUsd,
  };
  const name = typeof metric === 'string' ? metric : 'number';
  const value = values[name] ?? Number.NaN;
  if (!Number.isFinite(value)) return binary(false, `The ${name} of the output is not a number.`);
  const low = typeof min === 'number' ? min : -Infinity;
  const high = typeof max === 'number' ? max : Infinity;
  const ok = value >= low && value <= high;
  return binary(ok, `The ${name} is ${value}, ${ok ? 'within' : 'outside'} [${low}, ${high}].`);
}

function judgeScore(x: ScoreInput): ScoreResult {
  const reference = x.expected ?? x.input;
  const referenceName = x.expected === undefined ? 'input' : 'expected output';
  let verdict: Verdict;
  if (x.scorer.scorerType === 'pairwise_llm') {
    let opponents = x.opponents;
    if (x.candidateCount === 1) {
      if (x.expected === undefined) return noExpected('pairwise_llm');
      opponents = [x.expected];
    } else if (opponents.length === 0) {
      return failed('no_comparison', 'Every other candidate failed on this row; nothing to compare with.');
    }
    const failure = x.judgeFailure();
    if (failure) return failed('judge_error', failure);
    verdict = pairwise(x.trace.output, opponents, reference, referenceName);
  } else {
    const failure = x.judgeFailure();
    if (failure) return failed('judge_error', failure);
    const result = coverage(x.trace.output, reference);
    verdict = { score: result.score, reasoning: judgeReasoning(result, referenceName) };
  }
  const threshold = typeof x.scorer.config.pass_threshold === 'number' ? x.scorer.config.pass_threshold : 0.5;
  return {
    status: 'completed',
    score: verdict.score,
    passed: verdict.score >= threshold,
    reasoning: verdict.reasoning,
    error: null,
  };
}
