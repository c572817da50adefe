import { describe, expect, it } from 'vitest';
import { SpendBudgets } from '../../../src/budget/per-key.js';
import { BudgetExceededError } from '../../../src/errors.js';
import { MemoryStore } from '../../../src/store/memory.js';

const price = (usd: number) => ({ usd, basis: 'a test price' });

describe('SpendBudgets (HTTP: one budget per key over a window)', () => {
  it('a key’s budget is one ledger in the store: every replica and session reserves against it', async () => {
    const store = new MemoryStore({ shared: true });
    const a = new SpendBudgets(1, store, 3_600_000).forKey('key-a');
    const b = new SpendBudgets(1, store, 3_600_000).forKey('key-a');
    const held = await a.reserve(price(0.5));
    await held.settle(0.75);
    await expect(b.reserve(price(0.5))).rejects.toThrow(BudgetExceededError);
    const state = await b.state();
    expect(state).toMatchObject({ limit_usd: 1, spent_usd: 0.75, reserved_usd: 0, left_usd: 0.25 });
    expect(Date.parse(state.window_resets_at!)).toBeGreaterThan(Date.now() + 3_500_000);
    expect(await new SpendBudgets(1, store, 3_600_000).forKey('key-b').state()).toMatchObject({
      spent_usd: 0,
    });
    await store.close();
  });

  it('says spent, reserved and left when it refuses, and a job keeps its reservation until its cost settles', async () => {
    const store = new MemoryStore();
    const budget = new SpendBudgets(1, store, 3_600_000).forKey('k');
    const call = await budget.reserve(price(0.4));
    await call.defer('run_1', 0.4);
    await (await budget.reserve(price(0.3))).settle(0.3);
    const refusal = await budget.reserve(price(0.5)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BudgetExceededError);
    expect((refusal as Error).message).toMatch(
      /0\.3 USD spent and 0\.4 USD reserved of 1 USD, 0\.3 USD left; this call reserves 0\.5 USD \(a test price\)/,
    );
    await budget.settleJob('run_1', 0.35);
    expect(await budget.state()).toMatchObject({ spent_usd: 0.65, reserved_usd: 0, left_usd: 0.35 });
    await store.close();
  });
});
