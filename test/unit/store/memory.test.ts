import { afterAll } from 'vitest';
import { MemoryStore } from '../../../src/store/memory.js';
import { storeContract } from './contract.js';

const stores: MemoryStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

storeContract('memory', () => {
  const store = new MemoryStore();
  stores.push(store);
  return store;
});
