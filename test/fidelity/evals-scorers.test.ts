import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 25: a scorer list is read scorer by scorer (spec 2 §2.7 marks none of a scorer's fields
// required): one that cannot be used is left out and named, and the rest are listed.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'evals' } });
});
afterAll(async () => {
  await h.close();
});

const LIST = '/api/v1/evals/scorers';

describe('evals_read scorers read tolerantly', () => {
  it('lists the other scorers when one is spoiled, and names it', async () => {
    const plain = out(await h.call('evals_read', { operation: 'scorers.list' })).data.data as unknown[];
    expect(plain.length).toBeGreaterThan(2);
    h.sandbox.faults.add({ match: { path: LIST }, reshape: { set: { 'data.1': 42, 'data.2.id': '' } } });
    const result = await h.call('evals_read', { operation: 'scorers.list' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = out(result).data;
    expect(data.data).toEqual([plain[0], ...plain.slice(3)]);
    // Named by its place when it has no id or name, else by its name.
    const third = (plain[2] as { name: string }).name;
    expect(data.not_usable).toBe(
      `2 scorers not usable: #2 Invalid input: expected object, received number; ${third} id: Too small: expected string to have >=1 characters`,
    );
  });

  it('reads a scorer without scorer_type (not marked required)', async () => {
    h.sandbox.faults.add({ match: { path: LIST }, reshape: { drop: ['data.*.scorer_type'] } });
    const listed = await h.call('evals_read', { operation: 'scorers.list' });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect(out(listed).data.not_usable).toBeUndefined();
    h.sandbox.faults.add({ match: { path: `${LIST}/contains` }, reshape: { drop: ['scorer_type'] } });
    const got = await h.call('evals_read', { operation: 'scorers.get', id: 'contains' });
    expect(got.isError, textOf(got)).toBeFalsy();
    expect(out(got).data.id).toBe('contains');
  });
});
