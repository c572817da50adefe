/**
 * A small reply cache that keeps a reply exactly as long as its `Cache-Control` allows and never
 * longer (RFC 9111 §5.2.2, RFC 5861): fresh for `max-age`, then served stale for at most
 * `stale-while-revalidate` while one background load refreshes it. `no-store`, `no-cache` and a
 * missing or zero max-age mean the reply is not kept. A `private` reply is kept for its tenant
 * alone; a reply without it is shared by everyone who asks for the same key.
 */

export interface CachePolicy {
  maxAgeMs: number;
  staleMs: number;
  /** Only the tenant that received it may reuse it. */
  private: boolean;
}

/** The policy a `Cache-Control` header gives, or undefined when the reply must not be kept. */
export function parseCacheControl(header: string | undefined): CachePolicy | undefined {
  if (!header) return undefined;
  const directives = new Map<string, string | undefined>();
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=', 2);
    if (name) directives.set(name.toLowerCase(), value?.replace(/^"|"$/g, ''));
  }
  if (directives.has('no-store') || directives.has('no-cache')) return undefined;
  const seconds = (name: string) => {
    const value = Number(directives.get(name));
    return Number.isFinite(value) && value > 0 ? value * 1000 : 0;
  };
  const maxAgeMs = seconds('max-age');
  if (maxAgeMs === 0) return undefined;
  return { maxAgeMs, staleMs: seconds('stale-while-revalidate'), private: directives.has('private') };
}

export interface Loaded<T> {
  value: T;
  headers: Record<string, string>;
}

interface Entry<T> {
  value: T;
  storedAt: number;
  policy: CachePolicy;
}

export class ReplyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly loading = new Map<string, Promise<T>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 200,
  ) {}

  /**
   * The value for `key`: a fresh one from the cache, a stale one within its revalidation window
   * (refreshed in the background), or a new load. `tenant` names who asks, for private replies.
   */
  async get(key: string, tenant: string, load: () => Promise<Loaded<T>>): Promise<T> {
    const slot = this.lookup(key, tenant);
    if (slot) {
      const age = this.now() - slot.entry.storedAt;
      if (age < slot.entry.policy.maxAgeMs) return slot.entry.value;
      if (age < slot.entry.policy.maxAgeMs + slot.entry.policy.staleMs) {
        // A failed refresh keeps the stale value, still only until its window closes.
        this.refresh(key, tenant, load).catch(() => {});
        return slot.entry.value;
      }
      this.entries.delete(slot.name);
    }
    return this.refresh(key, tenant, load);
  }

  /** Forgets everything (tests, and a change of platform). */
  clear(): void {
    this.entries.clear();
  }

  private lookup(key: string, tenant: string): { name: string; entry: Entry<T> } | undefined {
    for (const name of [key, privateName(key, tenant)]) {
      const entry = this.entries.get(name);
      if (entry) return { name, entry };
    }
    return undefined;
  }

  /** One load per key and tenant at a time; callers arriving meanwhile share it. */
  private refresh(key: string, tenant: string, load: () => Promise<Loaded<T>>): Promise<T> {
    const name = privateName(key, tenant);
    const running = this.loading.get(name);
    if (running) return running;
    const started = this.now();
    const promise = load()
      .then(({ value, headers }) => {
        this.store(key, tenant, value, parseCacheControl(headers['cache-control']), started);
        return value;
      })
      .finally(() => this.loading.delete(name));
    this.loading.set(name, promise);
    return promise;
  }

  private store(key: string, tenant: string, value: T, policy: CachePolicy | undefined, at: number): void {
    this.entries.delete(key);
    this.entries.delete(privateName(key, tenant));
    if (!policy) return;
    // Age counts from the request, so a slow reply is not kept past its max-age.
    this.entries.set(policy.private ? privateName(key, tenant) : key, { value, storedAt: at, policy });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

const privateName = (key: string, tenant: string) => `${key}\u0000${tenant}`;
