import { describe, expect, it } from 'vitest';
import { SpendBudget } from '../../../src/budget/ledger.js';
import { MemoryStore } from '../../../src/store/memory.js';
import type { LedgerStep } from '../../../src/store/store.js';

/** A budget over a memory ledger that counts the steps it is asked for. */
function counted(limitUsd: number | undefined) {
  const store = new MemoryStore();
  const steps: LedgerStep['op'][] = [];
  const ledger = store.ledger.bind(store);
  store.ledger = (key, step) => {
    steps.push(step.op);
    return ledger(key, step);
  };
  return { budget: new SpendBudget(limitUsd, { store, key: 'budget' }), steps };
}

const price = { usd: 0.5, basis: 'a ceiling of 0.5 USD per call' };

describe('SpendBudget without a limit', () => {
  it('holds nothing while a call runs and counts it once, in one ledger step', async () => {
    const { budget, steps } = counted(undefined);
    const call = await budget.reserve(price);
    expect(steps).toEqual([]);
    expect(await budget.state()).toMatchObject({ spent_usd: 0, reserved_usd: 0 });
    await call.settle(0.002);
    await call.settle(0.002);
    expect(steps).toEqual(['read', 'settle']);
    expect(await budget.state()).toMatchObject({ spent_usd: 0.002, reserved_usd: 0 });
  });

  it('writes nothing for a call that failed or cost nothing', async () => {
    const { budget, steps } = counted(undefined);
    await (await budget.reserve(price)).release();
    await (await budget.reserve(price)).settle(0);
    await (await budget.reserve(price)).settle(undefined);
    expect(steps).toEqual([]);
  });

  it("keeps a job's later cost under the job's id, counted once by whoever reads it", async () => {
    const { budget } = counted(undefined);
    await (await budget.reserve(price)).defer('job-1', 0.25, 0.01);
    expect(await budget.state()).toMatchObject({ spent_usd: 0.01, reserved_usd: 0.25 });
    await budget.settleJob('job-1', 0.2);
    await budget.settleJob('job-1', 0.2);
    expect(await budget.state()).toMatchObject({ spent_usd: 0.21, reserved_usd: 0 });
  });
});

describe('SpendBudget with a limit', () => {
  it('reserves before the call and settles after: two ledger steps', async () => {
    const { budget, steps } = counted(1);
    const call = await budget.reserve(price);
    expect(await budget.state()).toMatchObject({ reserved_usd: 0.5, left_usd: 0.5 });
    await call.settle(0.1);
    expect(steps).toEqual(['reserve', 'read', 'settle']);
    expect(await budget.state()).toMatchObject({ spent_usd: 0.1, reserved_usd: 0, left_usd: 0.9 });
  });
});

describe('a job whose cost is never stated', () => {
  it('keeps its reservation for a window longer than a day, so its money does not go round again', async () => {
    let now = Date.now();
    const week = 7 * 24 * 3_600_000;
    const budget = new SpendBudget(
      1,
      { store: new MemoryStore({ now: () => now }), key: 'budget' },
      week,
      true,
    );
    await (await budget.reserve(price)).defer('job-quiet', 0.5);
    now += 2 * 24 * 3_600_000;
    expect(await budget.state()).toMatchObject({ reserved_usd: 0.5, left_usd: 0.5 });
    now += 6 * 24 * 3_600_000;
    expect(await budget.state()).toMatchObject({ spent_usd: 0, reserved_usd: 0, left_usd: 1 });
  });
});

describe('SpendBudget shaping a call before refusing it', () => {
  /** A call worth 2 USD that can be made smaller: down to what is left, but not below 0.1 USD. */
  const shapeable = {
    usd: 2,
    basis: 'a call of 2 USD',
    fit: (left: number) => ({ usd: Math.max(0.1, left), basis: `a call of ${left} USD` }),
  };

  it('reserves the whole call when it fits, in one ledger step', async () => {
    const { budget, steps } = counted(5);
    const { price } = await budget.reserveShaped(shapeable);
    expect(price).toBe(shapeable);
    expect(steps).toEqual(['reserve']);
  });

  it('reserves what is left when the whole call does not fit, and refuses below what is useful', async () => {
    const { budget } = counted(1);
    const { price } = await budget.reserveShaped(shapeable);
    expect(price.usd).toBe(1);
    expect(await budget.state()).toMatchObject({ reserved_usd: 1, left_usd: 0 });
    await expect(budget.reserveShaped(shapeable)).rejects.toThrow(
      /this call reserves 0\.1 USD \(a call of 0 USD\)/,
    );
  });

  it('never holds more than the limit when many shape at once', async () => {
    const { budget } = counted(1);
    const calls = await Promise.allSettled(Array.from({ length: 8 }, () => budget.reserveShaped(shapeable)));
    const held = calls.flatMap((c) => (c.status === 'fulfilled' ? [c.value.price.usd] : []));
    expect(held.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
    expect((await budget.state()).reserved_usd).toBeLessThanOrEqual(1);
  });
});
