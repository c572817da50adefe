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

  // Issue 32: inline or file is decided by size (what fits comfortably in a result), not by count.
  const withResults = async (results: unknown[]) => {
    const completed = out(await h.call('batches_list', { status: ['completed'], limit: 1 })).batches[0];
    h.sandbox.faults.add({
      match: { path: `/api/beta/batches/${completed.id}` },
      reshape: { set: { results } },
    });
    const result = await h.call('batches_get', { id: completed.id });
    expect(result.isError, textOf(result)).toBeFalsy();
    return { got: out(result), text: textOf(result) };
  };

  it('returns ten short results inline, no file', async () => {
    const results = Array.from({ length: 10 }, (_, i) => ({
      custom_id: `q${i + 1}`,
      response: answer(`Answer ${i + 1}.`),
    }));
    const { got, text } = await withResults(results);
    expect(got.results_file).toBeUndefined();
    expect(got.results).toBe(10);
    expect(got.preview).toHaveLength(10);
    expect(got.preview[9]).toEqual({ id: 'q10', ok: true, text: 'Answer 10.' });
    expect(text).toContain('q10: Answer 10.');
  });

  it('saves two long results to a file, a preview of each inline', async () => {
    const long = (n: number) => `Result ${n}: ${'word '.repeat(600)}`;
    const { got } = await withResults([
      { custom_id: 'a', response: answer(long(1)) },
      { custom_id: 'b', response: answer(long(2)) },
    ]);
    expect(got.results_file?.uri).toMatch(/^orbit:\/\/media\//);
    expect(got.preview.map((p: { text: string }) => p.text.length)).toEqual([300, 300]);
  });
});
