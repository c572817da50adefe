import { describe, expect, it } from 'vitest';
import type { TraceResult } from '../../src/sandbox/evals/experiment.js';
import { applyScorer } from '../../src/sandbox/evals/scoring.js';
import type { ScorerVersion } from '../../src/sandbox/evals/store.js';

/**
 * The sandbox's own answers always start "Sandbox reply to:", so an experiment never shows a
 * JSON or numeric answer; these cases are checked on the scorer directly.
 */
const scorer = (scorerType: ScorerVersion['scorerType'], config: Record<string, unknown>): ScorerVersion => ({
  id: 's',
  versionId: 'v',
  version: 1,
  name: 's',
  description: null,
  scorerType,
  config,
  prompt: null,
  judgeModel: null,
  createdAt: 0,
  builtin: false,
});

const trace = (output: string): TraceResult & { output: string } => ({
  id: 't',
  status: 'completed',
  prompt: 'p',
  output,
  model: 'm',
  provider: 'p',
  promptTokens: 3,
  completionTokens: 7,
  costUsd: 0.002,
  latencyMs: 170,
  error: null,
  startedAt: 0,
  completedAt: 0,
});

const score = (s: ScorerVersion, output: string, expected?: string) =>
  applyScorer({
    scorer: s,
    input: 'in',
    expected,
    trace: trace(output),
    opponents: [],
    candidateCount: 1,
    judgeFailure: () => undefined,
  });

describe('sandbox evals: scorers on answers an experiment cannot produce', () => {
  const person = { type: 'object', properties: { age: { type: 'integer', minimum: 0 } }, required: ['age'] };

  it('passes JSON that matches the schema and says where other JSON fails', () => {
    expect(score(scorer('json_schema', { schema: person }), ' {"age": 4} ')).toMatchObject({
      score: 1,
      passed: true,
    });
    expect(score(scorer('json_schema', { schema: person }), '{"age": -1}')).toMatchObject({
      score: 0,
      passed: false,
      reasoning: expect.stringContaining('at age'),
    });
    expect(score(scorer('json_schema', { schema: {} }), '[1, 2]').score).toBe(1);
  });

  it('reads a numeric answer for threshold, and the trace cost for cost_usd', () => {
    expect(score(scorer('threshold', { metric: 'number', min: 1, max: 5 }), ' 4.5 ')).toMatchObject({
      score: 1,
      reasoning: 'The number is 4.5, within [1, 5].',
    });
    expect(score(scorer('threshold', { metric: 'number', max: 3 }), '4').score).toBe(0);
    expect(score(scorer('threshold', { metric: 'cost_usd', max: 0.001 }), 'x').reasoning).toBe(
      'The cost_usd is 0.002, outside [-Infinity, 0.001].',
    );
  });

  it('matches contains case-sensitively unless told otherwise', () => {
    expect(score(scorer('contains', { case_sensitive: true }), 'Hello World', 'world').score).toBe(0);
    expect(score(scorer('contains', { case_sensitive: false }), 'Hello World', 'world').score).toBe(1);
  });
});
