import { randomBytes } from 'node:crypto';
import { type Store, storeKey } from './store.js';

/** Renewed at every start; what it signs lives minutes, so only a year without any start renews it. */
const SECRET_TTL_MS = 365 * 24 * 3600_000;

/**
 * A random secret every replica on one store agrees on (the first to start makes it, the others
 * read it), or this process's own on its own memory. It signs the state a 2026-07-28 call hands
 * the client when it asks the person something, so the retry may land on any replica.
 */
export async function sharedSecret(store: Store, name: string): Promise<Uint8Array> {
  const own = randomBytes(32);
  if (!store.shared) return own;
  const key = storeKey('secret', name);
  const mine = own.toString('base64');
  for (let attempt = 0; attempt < 2; attempt++) {
    const agreed = (await store.claim(key, mine, SECRET_TTL_MS)) ? mine : await store.get(key);
    if (agreed) {
      await store.touch(key, SECRET_TTL_MS);
      return Buffer.from(agreed, 'base64');
    }
    // Expired between the claim and the read: claim again.
  }
  throw new Error(`the store lost the shared ${name} secret twice while it was being read`);
}
