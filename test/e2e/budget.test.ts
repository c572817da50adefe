import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { maxSpendUsd: '0.01' } });
});
afterAll(async () => {
  await h.close();
});

describe('the spend budget (--max-spend-usd)', () => {
  it('adds up what paid calls cost and refuses the next paid call before sending it', async () => {
    h.sandbox.clearRequests();
    // A search costs 0.006 USD in the sandbox: the first fits, the second would pass 0.01.
    expect((await h.call('web_search', { query: 'first' })).isError).toBeFalsy();
    expect((await h.call('web_search', { query: 'second' })).isError).toBeFalsy();
    const refused = await h.call('web_search', { query: 'third' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /budget_exceeded\): This call would pass the spend budget: 0\.012 of 0\.01 USD spent/,
    );
    expect(textOf(refused)).toMatch(/Nothing was sent/);
    expect(h.sandbox.requests.filter((r) => r.path === '/api/web')).toHaveLength(2);
  });

  it('still serves calls that cost nothing', async () => {
    expect((await h.call('models_list', {})).isError).toBeFalsy();
  });
});
