import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/store/memory.js';
import { sharedSecret } from '../../../src/store/shared-secret.js';
import { storeKey } from '../../../src/store/store.js';

describe('sharedSecret', () => {
  it('is the same for every replica on one shared store, and made by the first', async () => {
    const store = new MemoryStore({ shared: true });
    const first = await sharedSecret(store, 'request-state');
    const second = await sharedSecret(store, 'request-state');
    expect(first).toHaveLength(32);
    expect(await store.get(storeKey('secret', 'request-state'))).toBe(Buffer.from(first).toString('base64'));
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(await sharedSecret(store, 'other')).equals(Buffer.from(first))).toBe(false);
  });

  it('is each process’s own on its own memory', async () => {
    const [a, b] = [new MemoryStore(), new MemoryStore()];
    const first = await sharedSecret(a, 'request-state');
    expect(Buffer.from(await sharedSecret(b, 'request-state')).equals(Buffer.from(first))).toBe(false);
    expect(await a.get(storeKey('secret', 'request-state'))).toBeUndefined();
  });
});
