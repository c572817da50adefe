import { z } from 'zod';
import { type Store, storeKey } from '../store/store.js';

/** What every replica knows of a saved file: enough to list it and, when small, to serve it. */
export interface SharedMediaEntry {
  id: string;
  tenant: string;
  mimeType: string;
  bytes: number;
  createdAt: number;
  /** The platform's URL of the original, when the tool knew one (for files too large to share). */
  url?: string;
  /** Whether the bytes are in the store. */
  shared: boolean;
}

const Entry = z.object({
  id: z.string(),
  tenant: z.string(),
  mimeType: z.string(),
  bytes: z.number(),
  createdAt: z.number(),
  url: z.string().optional(),
  shared: z.boolean(),
});

export interface SharedMediaLimits {
  /** Files up to this size are copied into the store; larger ones are listed with their URL. */
  maxFileBytes: number;
  /** Files listed per tenant (the oldest go first). */
  perTenant: number;
  /** Bytes kept in the store per tenant (the oldest go first). */
  bytesPerTenant: number;
  ttlMs: number;
}

const DEFAULT_SHARED_MEDIA_LIMITS: SharedMediaLimits = {
  maxFileBytes: 8 * 1_048_576,
  perTenant: 500,
  bytesPerTenant: 256 * 1_048_576,
  ttlMs: 24 * 3_600_000,
};

/**
 * The part of the media registry every replica sees (with a shared store): a tenant's list of
 * files and the bytes of the small ones, so an `orbit://media/` id minted by one replica is read
 * through another. Scoped by tenant fingerprint; every entry expires; bounded per tenant.
 */
export class SharedMedia {
  private readonly limits: SharedMediaLimits;

  constructor(
    private readonly store: Store,
    limits: Partial<SharedMediaLimits> = {},
  ) {
    this.limits = { ...DEFAULT_SHARED_MEDIA_LIMITS, ...limits };
  }

  async put(entry: Omit<SharedMediaEntry, 'shared'>, data: Buffer): Promise<void> {
    const { ttlMs, perTenant } = this.limits;
    const shared = data.length <= this.limits.maxFileBytes;
    const record: SharedMediaEntry = { ...entry, shared };
    if (shared) await this.store.setBytes(this.bytesKey(entry.tenant, entry.id), data, ttlMs);
    await this.store.set(this.entryKey(entry.tenant, entry.id), JSON.stringify(record), ttlMs);
    const gone = await this.store.index(this.indexKey(entry.tenant), entry.id, entry.createdAt, {
      maxItems: perTenant,
      ttlMs,
    });
    await this.forget(entry.tenant, gone);
    if (shared) await this.keepWithinBytes(entry.tenant, data.length);
  }

  async get(tenant: string, id: string): Promise<SharedMediaEntry | undefined> {
    const text = await this.store.get(this.entryKey(tenant, id));
    if (!text) return undefined;
    try {
      const entry = Entry.safeParse(JSON.parse(text));
      return entry.success && entry.data.tenant === tenant ? entry.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Newest first. */
  async list(tenant: string, limit: number): Promise<SharedMediaEntry[]> {
    const ids = await this.store.members(this.indexKey(tenant), { limit });
    const entries = await Promise.all(ids.map((id) => this.get(tenant, id)));
    return entries.filter((entry): entry is SharedMediaEntry => entry !== undefined);
  }

  async bytes(tenant: string, id: string): Promise<Buffer | undefined> {
    return this.store.getBytes(this.bytesKey(tenant, id));
  }

  /** The oldest files leave while the tenant holds more bytes in the store than its share. */
  private async keepWithinBytes(tenant: string, added: number): Promise<void> {
    let total = await this.store.add(this.usageKey(tenant), added, this.limits.ttlMs);
    if (total <= this.limits.bytesPerTenant) return;
    const oldest = await this.store.members(this.indexKey(tenant), { lowestFirst: true });
    // The newest always stays, however large.
    for (const id of oldest.slice(0, -1)) {
      if (total <= this.limits.bytesPerTenant) break;
      total -= await this.forget(tenant, [id]);
    }
  }

  /** Forgets files; returns the bytes that left the store. */
  private async forget(tenant: string, ids: readonly string[]): Promise<number> {
    let freed = 0;
    for (const id of ids) {
      const entry = await this.get(tenant, id);
      await this.store.unindex(this.indexKey(tenant), id);
      await this.store.delete(this.entryKey(tenant, id), this.bytesKey(tenant, id));
      if (entry?.shared) freed += entry.bytes;
    }
    if (freed > 0) await this.store.add(this.usageKey(tenant), -freed, this.limits.ttlMs);
    return freed;
  }

  private usageKey(tenant: string) {
    return storeKey('media-usage', tenant);
  }

  private entryKey(tenant: string, id: string) {
    return storeKey('media', tenant, id);
  }

  private bytesKey(tenant: string, id: string) {
    return storeKey('media-bytes', tenant, id);
  }

  private indexKey(tenant: string) {
    return storeKey('media-list', tenant);
  }
}
