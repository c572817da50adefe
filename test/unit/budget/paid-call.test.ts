import { describe, expect, it } from 'vitest';
import { type Price, SpendBudget } from '../../../src/budget/ledger.js';
import { reservePaidCall, type ToolCost } from '../../../src/budget/paid-call.js';

type Result = { cost?: number; job?: string };

const tool = (price: Price | undefined, calls: { priced: number } = { priced: 0 }) => ({
  name: 'web_search',
  cost: {
    price: () => {
      calls.priced += 1;
      return price;
    },
    spent: (r) => r.cost,
    deferred: (r) => (r.job ? { jobId: r.job } : undefined),
  } satisfies ToolCost<Record<string, unknown>, Result, unknown>,
});

describe('the paid-call step', () => {
  it('sends the arguments the budget chose when only a smaller call fits, and says so', async () => {
    const budget = new SpendBudget(0.1);
    const price: Price = {
      usd: 1,
      basis: 'test',
      fit: (left) => ({
        usd: left,
        basis: 'shaped',
        shaped: { args: { max_tokens: 10 }, said: 'The spend budget sent max_tokens 10.' },
      }),
    };
    const paid = await reservePaidCall(budget, tool(price), { query: 'q' }, {});
    expect(paid.args).toEqual({ query: 'q', max_tokens: 10 });
    expect(await paid.succeeded({ cost: 0.05 })).toEqual({
      lines: ['The spend budget sent max_tokens 10.'],
      fields: { shaped_by_budget: { max_tokens: 10 } },
    });
    expect(await budget.state()).toMatchObject({ spent_usd: 0.05, reserved_usd: 0 });
  });

  it('releases a failure that never reached the platform, and keeps one that did as spent', async () => {
    const budget = new SpendBudget(1);
    const price: Price = { usd: 0.2, basis: 'test' };
    const before = await reservePaidCall(budget, tool(price), {}, {});
    expect(await before.failed(new Error('refused'), false)).toBeUndefined();
    expect(await budget.state()).toMatchObject({ spent_usd: 0, reserved_usd: 0 });
    const after = await reservePaidCall(budget, tool(price), {}, {});
    expect(await after.failed(new Error('unreadable'), true)).toBe(0.2);
    expect(await budget.state()).toMatchObject({ spent_usd: 0.2, reserved_usd: 0 });
  });

  it('holds a job whose cost comes later, and says what it holds', async () => {
    const budget = new SpendBudget(1);
    const paid = await reservePaidCall(budget, tool({ usd: 0.3, basis: 'test' }), {}, {});
    expect((await paid.succeeded({ job: 'run_1' })).lines).toEqual([
      'Cost: known when it finishes; 0.3 USD is held against the spend budget until then.',
    ]);
    expect(await budget.state()).toMatchObject({ spent_usd: 0, reserved_usd: 0.3 });
  });

  it('without a limit looks up no price and records nothing as reserved', async () => {
    const calls = { priced: 0 };
    const watched: number[] = [];
    const paid = await reservePaidCall(
      new SpendBudget(undefined),
      tool(undefined, calls),
      {},
      {},
      {
        watch: (reservation, reservedUsd) => {
          watched.push(reservedUsd);
          return reservation;
        },
      },
    );
    expect(calls.priced).toBe(0);
    expect(watched).toEqual([0]);
    expect((await paid.succeeded({})).lines).toEqual(['Cost: not stated by the platform.']);
  });

  it('asks the hook before anything is reserved, and a refusal there reserves nothing', async () => {
    const budget = new SpendBudget(1);
    const refused = reservePaidCall(
      budget,
      tool({ usd: 0.3, basis: 'test' }),
      {},
      {},
      {
        before: async () => {
          throw new Error('rate');
        },
      },
    );
    await expect(refused).rejects.toThrow('rate');
    expect(await budget.state()).toMatchObject({ reserved_usd: 0 });
  });
});
