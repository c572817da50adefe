import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 25: the shape of an output item's scores is "not shown" (spec 2 §4.11): a reply without
// `scores[].status`, with numeric strings, or with one spoiled element still gives a table.
const TIMING = { evalQueueMs: 50, evalStepMs: 20, pollHintMs: 50 };
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'evals' }, sandbox: { timing: TIMING } });
});
afterAll(async () => {
  await h.close();
});

const OUTPUT = '/api/v1/evals/experiments/*';
const rows = [
  { input: 'Name the largest planet', expected_output: 'Jupiter' },
  { input: 'Spell ORBIT in lower case', expected_output: 'orbit' },
];
const run = () =>
  h.call('eval_run', { rows, candidates: [{ model: 'openai/gpt-sandbox-mini' }], scorers: ['contains'] });

describe('eval output items read tolerantly', () => {
  it('gives the same table when scores carry no status and numbers come as strings', async () => {
    const plain = out(await run());
    h.sandbox.faults.add({
      match: { path: OUTPUT },
      persist: true,
      reshape: {
        drop: ['data.*.scores.*.status', 'data.*.status', 'data.*.item_index'],
        stringify: ['data.*.scores.*.score', 'data.*.cost_usd'],
      },
    });
    try {
      const result = await run();
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(out(result).table).toEqual(plain.table);
      expect(out(result).not_usable).toBeUndefined();
    } finally {
      h.sandbox.faults.clear();
    }
  });

  it('leaves out and names one spoiled score; the rest is tabled', async () => {
    h.sandbox.faults.add({
      match: { path: OUTPUT },
      persist: true,
      reshape: { set: { 'data.0.scores.0': 'garbage' } },
    });
    try {
      const result = await run();
      expect(result.isError, textOf(result)).toBeFalsy();
      const o = out(result);
      expect(o.table).toEqual([expect.objectContaining({ scorer: 'contains', count: 1 })]);
      expect(o.not_usable).toMatch(/^1 output item or score not usable: row 1 score #1 /);
      expect(textOf(result)).toMatch(/Left out: 1 output item or score not usable/);
    } finally {
      h.sandbox.faults.clear();
    }
  });

  it('evals_read experiments.output_items reads items without scores[].status', async () => {
    const { experiment_id } = out(await run());
    h.sandbox.faults.add({
      match: { path: OUTPUT },
      reshape: { drop: ['data.*.scores.*.status'], set: { 'data.1': 7 } },
    });
    const result = await h.call('evals_read', { operation: 'experiments.output_items', id: experiment_id });
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = out(result).data;
    expect(data.data).toHaveLength(1);
    expect(data.not_usable).toBe(
      '1 output item not usable: #2 Invalid input: expected object, received number',
    );
  });
});
