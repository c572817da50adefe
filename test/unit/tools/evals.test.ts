import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { checkRunLimits, workUnits } from '../../../tools/evals/run-limits.js';
import { inlineScorerId } from '../../../tools/evals/scorer-def.js';

const refusal = (run: () => void): InputError => {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('evaluation run limits (spec 2 §8)', () => {
  it('counts work units as items x candidates x max(1, scorers + 1)', () => {
    expect(workUnits(10, 2, 0)).toBe(20);
    expect(workUnits(10, 2, 3)).toBe(80);
  });

  it('lets a run of exactly 100 work units through', () => {
    expect(() => checkRunLimits(25, 2, 1)).not.toThrow();
    expect(() => checkRunLimits(100, 1, 0)).not.toThrow();
    expect(() => checkRunLimits(undefined, 5, 10)).not.toThrow();
  });

  it('says how many rows fit and how to split the rest', () => {
    const e = refusal(() => checkRunLimits(26, 2, 1));
    expect(e.message).toBe(
      'This run is too big: it needs 104 work units (26 rows x 2 candidates x 2, scorers + 1); the limit is 100. Nothing was sent.',
    );
    expect(e.fix).toBe(
      'With 2 candidates and 1 scorer a run takes at most 25 rows: split the 26 rows into 2 runs (rows 1-25, 26). Fewer candidates or scorers allow more rows per run.',
    );
    expect(e.details).toEqual({ work_units: 104, max_rows_per_run: 25 });
  });

  it('shortens a long list of runs', () => {
    const e = refusal(() => checkRunLimits(100, 5, 10));
    expect(e.fix).toContain('at most 1 row: split the 100 rows into 100 runs (rows 1, 2, 3, 4, 5, ... 100)');
  });

  it('names candidates and scorers over their own limits', () => {
    expect(refusal(() => checkRunLimits(1, 11, 0)).fix).toBe(
      'Split the candidates over 3 runs with the same rows and scorers.',
    );
    expect(refusal(() => checkRunLimits(1, 1, 21)).param).toBe('scorers');
  });
});

describe('inline scorer ids', () => {
  it('are the same for the same definition whatever the key order, and differ otherwise', () => {
    const a = inlineScorerId({ scorer_type: 'regex', config: { pattern: 'a', flags: 'i' } });
    const b = inlineScorerId({ config: { flags: 'i', pattern: 'a' }, scorer_type: 'regex' });
    const c = inlineScorerId({ scorer_type: 'regex', config: { pattern: 'b', flags: 'i' } });
    expect(a).toMatch(/^mcp_regex_[0-9a-f]{12}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });
});
