import { describe, expect, it } from 'vitest';
import type { Credential } from '../../../../../src/credentials.js';
import { BudgetExceededError } from '../../../../../src/errors.js';
import { SpendBudgets } from '../../../../../src/mcp/http/sessions/budgets.js';
import { MemoryStore } from '../../../../../src/store/memory.js';
import { fingerprint } from '../../../../../src/tenant.js';

const key: Credential = { kind: 'api_key', value: 'sk-orbit-sbx-budget-000000000001', source: 'request' };

describe('SpendBudgets', () => {
  it('with a shared store, a key’s spending on one replica counts on the others', async () => {
    const store = new MemoryStore({ shared: true });
    const a = new SpendBudgets(1, store);
    const b = new SpendBudgets(1, store);
    a.forKey(fingerprint(key)).record(0.75);
    a.forSession('s1')!.record(0.5);
    await b.refresh(key, 's1');
    expect(b.forKey(fingerprint(key)).state()).toMatchObject({ spent_usd: 0.75, left_usd: 0.25 });
    expect(() => b.forKey(fingerprint(key)).ensure(0.5)).toThrow(BudgetExceededError);
    expect(b.forSession('s1')!.state()).toMatchObject({ spent_usd: 0.5 });
    await store.close();
  });

  it('in memory, keeps today’s budgets: per key in this process, a session’s made with its server', async () => {
    const store = new MemoryStore();
    const budgets = new SpendBudgets(1, store);
    budgets.forKey(fingerprint(key)).record(0.75);
    expect(budgets.forKey(fingerprint(key)).state()).toMatchObject({ spent_usd: 0.75 });
    expect(budgets.forSession('s1')).toBeUndefined();
    expect(new SpendBudgets(1, store).forKey(fingerprint(key)).state()).toMatchObject({ spent_usd: 0 });
    await store.close();
  });
});
