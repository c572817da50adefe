/**
 * Where state that outlives one request is kept: in this process's memory (the default), or in
 * Redis or Valkey shared by every replica behind a load balancer (`--store redis://…`). The
 * operations are the few the server needs, each one atomic in both implementations, and every
 * write carries a time to live, so nothing a client leaves behind stays for ever. Keys are built
 * by `storeKey` (namespaced, scoped by a tenant fingerprint, never a key value).
 */
export interface Store {
  /** `memory`: this process only. `redis`: shared by every replica that names the same store. */
  readonly kind: 'memory' | 'redis';
  /** True when other processes see what this one writes. */
  readonly shared: boolean;

  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(...keys: string[]): Promise<void>;
  /** Pushes the key's expiry to `ttlMs` from now (a no-op for a missing key). */
  touch(key: string, ttlMs: number): Promise<void>;

  getBytes(key: string): Promise<Buffer | undefined>;
  setBytes(key: string, value: Buffer, ttlMs: number): Promise<void>;

  /** Sets only when the key is absent (a lease is taken); true when this call set it. */
  claim(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Extends the key only while it still holds `value` (the lease is still ours). */
  renew(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Deletes the key only while it still holds `value`. */
  release(key: string, value: string): Promise<boolean>;

  /** Merges fields into a record; `initial` fields are set only where the record has none. */
  merge(
    key: string,
    fields: Record<string, string>,
    ttlMs: number,
    initial?: Record<string, string>,
  ): Promise<void>;
  /** Every field of a record, or undefined when there is none. */
  fields(key: string): Promise<Record<string, string> | undefined>;
  fieldsOfMany(keys: readonly string[]): Promise<(Record<string, string> | undefined)[]>;

  /**
   * Appends to a list that keeps its newest items within `maxItems` and `maxBytes` (the newest
   * always stays, however large); the list expires `ttlMs` after the last append.
   */
  append(key: string, item: string, bounds: ListBounds): Promise<void>;
  items(key: string): Promise<string[]>;

  /**
   * Adds (or re-scores) a member of a scored index kept within `maxItems`, the lowest scores going
   * first; returns the members that had to go. The index expires `ttlMs` after the last add.
   */
  index(key: string, member: string, score: number, bounds: IndexBounds): Promise<string[]>;
  /** Members by score, highest first unless `lowestFirst`; at most `limit`. */
  members(key: string, options?: { limit?: number; lowestFirst?: boolean }): Promise<string[]>;
  /** Drops members scored below `minScore`, then counts the rest. */
  countFrom(key: string, minScore: number): Promise<number>;
  unindex(key: string, member: string): Promise<void>;

  /** Adds to a number (created at 0) and returns the new value; the first add sets the expiry. */
  add(key: string, by: number, ttlMs: number): Promise<number>;

  /**
   * One atomic step on a spend ledger (see `LedgerStep`): what was spent in the current window and
   * the live reservations, read, checked against the limit and written in one operation, so two
   * replicas reserving at once can never both take the last of a budget.
   */
  ledger(key: string, step: LedgerStep): Promise<LedgerState>;

  /**
   * Takes one token from every bucket, or from none when one of them is short (a request counted
   * against its key and its address at once): atomic, so replicas taking at once never take more
   * than the buckets hold.
   */
  take(buckets: readonly TokenBucket[]): Promise<TakeResult>;

  publish(channel: string, message: string): Promise<void>;
  /** Calls `listener` with every message published on `channel` from now on; the result unsubscribes. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;

  /** True when the store answers (for `/ready`). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Amounts are whole nano-USD (exact integers in Lua and JS alike). `reserve` adds reservation `id`
 * when spent + reserved + amount stays within `limit` (no limit: always); `settle` drops the
 * reservation, adds `amount` to spent and may `keep` a follow-on reservation (a job whose cost comes
 * later) in the same step; `release` drops it; `read` only reads. A reservation lives `ttlMs`; the
 * spent figure starts again at 0 when `windowMs` has passed since the window began.
 */
export type LedgerStep = { windowMs: number } & (
  | { op: 'reserve'; id: string; amount: number; limit?: number; ttlMs: number }
  | {
      op: 'settle';
      id: string;
      amount: number;
      keep?: { id: string; amount: number; ttlMs: number };
      /** Only when reservation `id` is still held: a job's cost counts once, whoever learns it. */
      ifHeld?: boolean;
    }
  | { op: 'release'; id: string }
  | { op: 'read' }
);

export interface LedgerState {
  /** False only for a reserve the limit refused (nothing was written). */
  ok: boolean;
  spent: number;
  reserved: number;
  /** When the current window began (ms since the epoch). */
  windowStart: number;
}

/**
 * A token bucket: holds at most `burst` tokens and gains `perSecond` a second; one a request. A
 * bucket never taken from is full, so a record is kept only until it would be full again.
 */
export interface TokenBucket {
  key: string;
  perSecond: number;
  burst: number;
}

/** Refused: the first bucket short of a token, and how long until every one holds one again. */
export type TakeResult = { ok: true } | { ok: false; refusedBy: number; retryAfterMs: number };

/** How long a bucket's record must live: until it is full again (a second more, for the clocks). */
export function bucketLifeMs(bucket: TokenBucket): number {
  return Math.ceil((bucket.burst * 1000) / bucket.perSecond) + 1000;
}

export interface ListBounds {
  maxItems: number;
  maxBytes: number;
  ttlMs: number;
}

export interface IndexBounds {
  maxItems: number;
  ttlMs: number;
}

/** Every key this server writes starts with this, so a store can be shared with other programs. */
const KEY_PREFIX = 'orbit-mcp:v1';

/**
 * A namespaced key: `orbit-mcp:v1:<area>:<part>:<part>`. Parts are tenant fingerprints, session
 * ids or platform ids; a `:` inside a part is escaped so two parts never read as one.
 */
export function storeKey(area: string, ...parts: readonly string[]): string {
  return [KEY_PREFIX, area, ...parts.map((part) => part.replaceAll('%', '%25').replaceAll(':', '%3A'))].join(
    ':',
  );
}
