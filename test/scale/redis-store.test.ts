/** The Store contract on a real redis-server: what the memory store does, Redis does the same way. */
import { afterAll, beforeAll } from 'vitest';
import { RedisStore } from '../../src/store/redis.js';
import type { Store } from '../../src/store/store.js';
import { storeContract } from '../unit/store/contract.js';
import { type RunningRedis, startRedis } from './lib/redis.js';

let redis: RunningRedis;
let store: Store;

beforeAll(async () => {
  redis = await startRedis();
  store = await RedisStore.connect(redis.url);
});
afterAll(async () => {
  await store?.close();
  await redis?.stop();
});

storeContract('redis', () => store);
