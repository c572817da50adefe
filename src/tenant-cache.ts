/**
 * A small in-memory cache kept per tenant: one caller never reads another's entries, every entry
 * dies after `ttlMs`, and the cache is bounded by count and, when entries have a weight (bytes),
 * by weight, per tenant and in all. The oldest entries go first. Meant for short-lived session
 * state (an attested signing address, the bytes of a recent exchange), never for anything that
 * must survive a restart.
 */
export interface TenantCacheLimits<V> {
  /** Entries one tenant may keep. */
  perTenant: number;
  /** Entries kept in all, every tenant together. */
  total: number;
  ttlMs: number;
  /** An entry's weight (for example its bytes); every entry weighs 0 without it. */
  weigh?: (value: V) => number;
  /** Weight one tenant may keep. */
  maxTenantWeight?: number;
  /** Weight kept in all. */
  maxTotalWeight?: number;
}

/** One tenant's part of the cache. */
export interface TenantView<V> {
  get(key: string): V | undefined;
  /** Keeps a value (replacing one under the same key); false when it alone weighs more than a tenant may keep. */
  set(key: string, value: V): boolean;
  delete(key: string): void;
}

interface Entry<V> {
  tenant: string;
  value: V;
  expires: number;
  weight: number;
}

export class TenantCache<V> {
  // Map order is insertion order: with one TTL for all, the first entry is always the oldest.
  private readonly entries = new Map<string, Entry<V>>();
  private readonly tenants = new Map<string, { count: number; weight: number }>();
  private weight = 0;

  constructor(
    private readonly limits: TenantCacheLimits<V>,
    // Read at each call (not captured once), so a test can move the clock.
    private readonly now: () => number = () => Date.now(),
  ) {}

  forTenant(tenant: string): TenantView<V> {
    const keyOf = (key: string) => `${tenant}\u0000${key}`;
    return {
      get: (key) => {
        const entry = this.entries.get(keyOf(key));
        if (!entry) return undefined;
        if (entry.expires > this.now()) return entry.value;
        this.remove(keyOf(key));
        return undefined;
      },
      set: (key, value) => this.set(tenant, keyOf(key), value),
      delete: (key) => this.remove(keyOf(key)),
    };
  }

  /** Entries held now, every tenant together (expired ones may linger until the next write). */
  get size(): number {
    return this.entries.size;
  }

  private set(tenant: string, key: string, value: V): boolean {
    this.remove(key);
    const weight = this.limits.weigh?.(value) ?? 0;
    if (weight > (this.limits.maxTenantWeight ?? Number.POSITIVE_INFINITY)) return false;
    this.entries.set(key, { tenant, value, expires: this.now() + this.limits.ttlMs, weight });
    const mine = this.tenants.get(tenant) ?? { count: 0, weight: 0 };
    mine.count += 1;
    mine.weight += weight;
    this.tenants.set(tenant, mine);
    this.weight += weight;
    this.evict(tenant);
    return true;
  }

  private evict(tenant: string): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.expires > now) break;
      this.remove(key);
    }
    const mine = () => this.tenants.get(tenant) ?? { count: 0, weight: 0 };
    const maxTenantWeight = this.limits.maxTenantWeight ?? Number.POSITIVE_INFINITY;
    while (mine().count > this.limits.perTenant || mine().weight > maxTenantWeight) {
      const oldest = this.oldestOf(tenant);
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    const maxTotalWeight = this.limits.maxTotalWeight ?? Number.POSITIVE_INFINITY;
    while (this.entries.size > this.limits.total || this.weight > maxTotalWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
  }

  private oldestOf(tenant: string): string | undefined {
    for (const [key, entry] of this.entries) if (entry.tenant === tenant) return key;
    return undefined;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
    const mine = this.tenants.get(entry.tenant);
    if (!mine) return;
    mine.count -= 1;
    mine.weight -= entry.weight;
    if (mine.count === 0) this.tenants.delete(entry.tenant);
  }
}
