import { MemoryStore } from './memory.js';
import type { Store } from './store.js';

/** `redis://` or `rediss://` (TLS), as Redis and Valkey both take them. */
const STORE_URL = /^rediss?:\/\//i;

/** Why a store URL cannot be used, or undefined when it can. */
export function storeUrlProblem(url: string): string | undefined {
  if (!STORE_URL.test(url)) return 'must be a redis:// or rediss:// URL, such as redis://127.0.0.1:6379';
  try {
    new URL(url);
    return undefined;
  } catch {
    return 'is not a valid URL';
  }
}

/** The URL as it may be shown: without a password. */
function shownStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the store URL';
  }
}

/**
 * The store for this process: in memory without a URL (nothing is loaded for Redis then), else
 * Redis or Valkey, reached before the server starts so a wrong URL fails at once.
 */
export async function openStore(url: string | undefined): Promise<Store> {
  if (!url) return new MemoryStore();
  const { RedisStore } = await import('./redis.js');
  try {
    return await RedisStore.connect(url);
  } catch (error) {
    throw new Error(`Cannot reach the store at ${shownStoreUrl(url)}: ${(error as Error).message}`);
  }
}
