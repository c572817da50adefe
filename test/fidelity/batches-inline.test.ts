import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 25: a batch with a few short results shows them inline instead of saving a file.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'all' } });
});
afterAll(async () => {
  await h.close();
});

const answer = (text: string) => ({ status_code: 200, body: { choices: [{ message: { content: text } }] } });

describe('batches_get, few results', () => {
  it('returns two short results inline, no file', async () => {
    const completed = out(await h.call('batches_list', { status: ['completed'], limit: 1 })).batches[0];
    h.sandbox.faults.add({
      match: { path: `/api/beta/batches/${completed.id}` },
      reshape: {
        set: {
          results: [
            { custom_id: 'a', response: answer('First answer.') },
            { custom_id: 'b', error: { message: 'model overloaded' } },
          ],
        },
      },
    });
    const result = await h.call('batches_get', { id: completed.id });
    expect(result.isError, textOf(result)).toBeFalsy();
    const got = out(result);
    expect(got.results_file).toBeUndefined();
    expect(got.results).toBe(2);
    expect(got.preview).toEqual([
      { id: 'a', ok: true, text: 'First answer.' },
      { id: 'b', ok: false, text: '{"message":"model overloaded"}' },
    ]);
    expect(textOf(result)).toContain('a: First answer.');
  });
});
