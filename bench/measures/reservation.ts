import { performance } from 'node:perf_hooks';
import { SpendBudget } from '../../src/budget/ledger.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RedisStore } from '../../src/store/redis.js';
import type { Store } from '../../src/store/store.js';
import { startRedis } from '../../test/scale/lib/redis.js';
import type { Figure } from '../lib/figure.js';
import type { InProcess } from '../lib/in-process.js';
import { median, round } from '../lib/stats.js';

const PRICE = { usd: 0.006, basis: 'the bench price' };
const WARM_UP = 200;

/** p50 (ms) of one reservation and its settlement on a ledger in `store`, what every paid call adds. */
async function reserveSettle(store: Store, calls: number): Promise<number> {
  const budget = new SpendBudget(
    1_000_000,
    { store, key: `bench:budget:${Date.now()}` },
    24 * 3_600_000,
    true,
  );
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + calls; i++) {
    const start = performance.now();
    const held = await budget.reserve(PRICE);
    await held.settle(PRICE.usd);
    if (i >= WARM_UP) times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * What the reservation costs a paid call (issue 23): reserve + settle on the in-memory ledger
 * (stdio, one replica) and on Redis (replicas sharing a budget: one Lua script each way), beside
 * the whole paid call without it, a web_search through MCP in process against the sandbox.
 */
export async function measureReservation(mcp: InProcess, calls: number): Promise<Figure[]> {
  const memory = await reserveSettle(new MemoryStore(), calls);
  const redis = await startRedis();
  let onRedis: number;
  try {
    const store = await RedisStore.connect(redis.url);
    try {
      onRedis = await reserveSettle(store, calls);
    } finally {
      await store.close();
    }
  } finally {
    await redis.stop();
  }
  const paid: number[] = [];
  for (let i = 0; i < WARM_UP + calls; i++) {
    const start = performance.now();
    await mcp.call('web_search', { query: `bench ${i}` });
    if (i >= WARM_UP) paid.push(performance.now() - start);
  }
  const call = median(paid);
  // The paid call above ran with the in-memory reservation (its server has a spend limit); without
  // it, it is that much shorter.
  const unreserved = call - memory;
  return [
    {
      id: 'reservation-memory',
      measure: 'Spend reservation on a paid call, in memory (reserve + settle), p50',
      unit: 'ms',
      orbit: round(memory, 4),
      baseline: round(unreserved, 3),
      added: round(memory, 4),
      details: { calls, paid_call_p50_ms: round(call, 3), share_of_call: round(memory / call, 4) },
    },
    {
      id: 'reservation-redis',
      measure: 'Spend reservation on a paid call, on Redis (two Lua script round trips), p50',
      unit: 'ms',
      orbit: round(onRedis, 4),
      baseline: round(unreserved, 3),
      added: round(onRedis, 4),
      details: { calls, share_of_unreserved_call: round(onRedis / unreserved, 4) },
    },
  ];
}
