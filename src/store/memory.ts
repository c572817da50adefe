import {
  bucketLifeMs,
  type IndexBounds,
  type LedgerState,
  type LedgerStep,
  type ListBounds,
  type Store,
  type TakeResult,
  type TokenBucket,
} from './store.js';

type Value =
  | { type: 'string'; value: string }
  | { type: 'bytes'; value: Buffer }
  | { type: 'record'; value: Map<string, string> }
  | { type: 'list'; value: string[]; bytes: number }
  | { type: 'index'; value: Map<string, number> }
  | { type: 'number'; value: number }
  | { type: 'bucket'; tokens: number; at: number };

interface Entry {
  data: Value;
  expires: number;
}

/**
 * The store of one process (the default): what the Redis store does, in a Map, with the same
 * expiries and bounds, so the code above it runs the same way with either. Expired entries are
 * dropped when touched and by a sweep once a minute.
 */
export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  /** False, except in tests that play several replicas in one process over one store. */
  readonly shared: boolean;
  private readonly entries = new Map<string, Entry>();
  private readonly channels = new Map<string, Set<(message: string) => void>>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(options: { now?: () => number; shared?: boolean } = {}) {
    this.now = options.now ?? Date.now;
    this.shared = options.shared ?? false;
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async get(key: string) {
    const data = this.read(key);
    // A number reads back as text, as Redis gives it.
    if (data?.type === 'number') return String(data.value);
    return data?.type === 'string' ? data.value : undefined;
  }

  async set(key: string, value: string, ttlMs: number) {
    this.write(key, { type: 'string', value }, ttlMs);
  }

  async delete(...keys: string[]) {
    for (const key of keys) this.entries.delete(key);
  }

  async touch(key: string, ttlMs: number) {
    const entry = this.live(key);
    if (entry) entry.expires = this.now() + ttlMs;
  }

  async getBytes(key: string) {
    const data = this.read(key);
    return data?.type === 'bytes' ? data.value : undefined;
  }

  async setBytes(key: string, value: Buffer, ttlMs: number) {
    this.write(key, { type: 'bytes', value: Buffer.from(value) }, ttlMs);
  }

  async claim(key: string, value: string, ttlMs: number) {
    if (this.live(key)) return false;
    this.write(key, { type: 'string', value }, ttlMs);
    return true;
  }

  async renew(key: string, value: string, ttlMs: number) {
    const entry = this.live(key);
    if (entry?.data.type !== 'string' || entry.data.value !== value) return false;
    entry.expires = this.now() + ttlMs;
    return true;
  }

  async release(key: string, value: string) {
    const entry = this.live(key);
    if (entry?.data.type !== 'string' || entry.data.value !== value) return false;
    this.entries.delete(key);
    return true;
  }

  async merge(
    key: string,
    fields: Record<string, string>,
    ttlMs: number,
    initial: Record<string, string> = {},
  ) {
    const data = this.read(key);
    const record = data?.type === 'record' ? data.value : new Map<string, string>();
    for (const [name, value] of Object.entries(initial)) if (!record.has(name)) record.set(name, value);
    for (const [name, value] of Object.entries(fields)) record.set(name, value);
    this.write(key, { type: 'record', value: record }, ttlMs);
  }

  async fields(key: string) {
    const data = this.read(key);
    return data?.type === 'record' ? Object.fromEntries(data.value) : undefined;
  }

  async fieldsOfMany(keys: readonly string[]) {
    return Promise.all(keys.map((key) => this.fields(key)));
  }

  async append(key: string, item: string, bounds: ListBounds) {
    const data = this.read(key);
    const list = data?.type === 'list' ? data : { type: 'list' as const, value: [], bytes: 0 };
    list.value.push(item);
    list.bytes += Buffer.byteLength(item);
    while (list.value.length > 1 && (list.value.length > bounds.maxItems || list.bytes > bounds.maxBytes)) {
      list.bytes -= Buffer.byteLength(list.value.shift()!);
    }
    this.write(key, list, bounds.ttlMs);
  }

  async items(key: string) {
    const data = this.read(key);
    return data?.type === 'list' ? [...data.value] : [];
  }

  async index(key: string, member: string, score: number, bounds: IndexBounds) {
    const data = this.read(key);
    const scores = data?.type === 'index' ? data.value : new Map<string, number>();
    scores.set(member, score);
    const evicted: string[] = [];
    if (scores.size > bounds.maxItems) {
      const lowest = sortedMembers(scores, true).slice(0, scores.size - bounds.maxItems);
      for (const gone of lowest) {
        scores.delete(gone);
        evicted.push(gone);
      }
    }
    this.write(key, { type: 'index', value: scores }, bounds.ttlMs);
    return evicted;
  }

  async members(key: string, options: { limit?: number; lowestFirst?: boolean } = {}) {
    const data = this.read(key);
    if (data?.type !== 'index') return [];
    return sortedMembers(data.value, options.lowestFirst ?? false).slice(0, options.limit);
  }

  async countFrom(key: string, minScore: number) {
    const data = this.read(key);
    if (data?.type !== 'index') return 0;
    for (const [member, score] of data.value) if (score < minScore) data.value.delete(member);
    return data.value.size;
  }

  async unindex(key: string, member: string) {
    const data = this.read(key);
    if (data?.type === 'index') data.value.delete(member);
  }

  async add(key: string, by: number, ttlMs: number) {
    const entry = this.live(key);
    if (entry?.data.type === 'number') {
      entry.data.value += by;
      return entry.data.value;
    }
    this.write(key, { type: 'number', value: by }, ttlMs);
    return by;
  }

  async ledger(key: string, step: LedgerStep): Promise<LedgerState> {
    // Synchronous from read to write: nothing else runs in between in this process.
    const now = this.now();
    const data = this.read(key);
    const record = data?.type === 'record' ? data.value : new Map<string, string>();
    const state = readLedger(record, now, step.windowMs);
    let ok = true;
    if (step.op === 'reserve') {
      ok = step.limit === undefined || state.spent + state.reserved + step.amount <= step.limit;
      if (ok) {
        record.set(`r:${step.id}`, `${step.amount}:${now + step.ttlMs}`);
        state.reserved += step.amount;
      }
    } else if (step.op === 'settle' || step.op === 'release') {
      const held = record.get(`r:${step.id}`);
      if (held !== undefined) state.reserved -= Number(held.split(':')[0]);
      record.delete(`r:${step.id}`);
      if (step.op === 'settle' && (held !== undefined || !step.ifHeld)) {
        state.spent += step.amount;
        record.set('spent', String(state.spent));
        if (step.keep) {
          record.set(`r:${step.keep.id}`, `${step.keep.amount}:${now + step.keep.ttlMs}`);
          state.reserved += step.keep.amount;
        }
      }
    }
    if (step.op !== 'read' || data) {
      const longest = Math.max(
        state.windowStart + step.windowMs - now,
        ...[...record.entries()]
          .filter(([field]) => field.startsWith('r:'))
          .map(([, value]) => Number(value.split(':')[1]) - now),
      );
      this.write(key, { type: 'record', value: record }, Math.max(1, longest));
    }
    return { ok, ...state };
  }

  async take(buckets: readonly TokenBucket[]): Promise<TakeResult> {
    // Synchronous from read to write, as the ledger.
    const now = this.now();
    const levels = buckets.map((bucket) => {
      const data = this.read(bucket.key);
      if (data?.type !== 'bucket') return bucket.burst;
      return Math.min(bucket.burst, data.tokens + ((now - data.at) * bucket.perSecond) / 1000);
    });
    let refusedBy = -1;
    let waitMs = 0;
    for (const [i, level] of levels.entries()) {
      if (level >= 1) continue;
      if (refusedBy < 0) refusedBy = i;
      waitMs = Math.max(waitMs, ((1 - level) * 1000) / buckets[i]!.perSecond);
    }
    if (refusedBy >= 0) return { ok: false, refusedBy, retryAfterMs: Math.ceil(waitMs) };
    for (const [i, bucket] of buckets.entries()) {
      this.write(bucket.key, { type: 'bucket', tokens: levels[i]! - 1, at: now }, bucketLifeMs(bucket));
    }
    return { ok: true };
  }

  async publish(channel: string, message: string) {
    // Delivered later, as Redis does: a publisher never runs its subscribers' code inline.
    for (const listener of this.channels.get(channel) ?? []) queueMicrotask(() => listener(message));
  }

  async subscribe(channel: string, listener: (message: string) => void) {
    const listeners = this.channels.get(channel) ?? new Set();
    listeners.add(listener);
    this.channels.set(channel, listeners);
    return async () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.channels.delete(channel);
    };
  }

  async ping() {
    return true;
  }

  async close() {
    clearInterval(this.sweeper);
    this.entries.clear();
    this.channels.clear();
  }

  /** Entries held now, expired ones included until they are touched or swept. */
  get size(): number {
    return this.entries.size;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > this.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  private read(key: string): Value | undefined {
    return this.live(key)?.data;
  }

  private write(key: string, data: Value, ttlMs: number): void {
    this.entries.set(key, { data, expires: this.now() + ttlMs });
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}

function sortedMembers(scores: Map<string, number>, lowestFirst: boolean): string[] {
  const sign = lowestFirst ? 1 : -1;
  return [...scores.entries()].sort((a, b) => sign * (a[1] - b[1])).map(([member]) => member);
}

/** Spent in the window (restarted when it has passed) and the sum of live reservations. */
function readLedger(record: Map<string, string>, now: number, windowMs: number) {
  let windowStart = Number(record.get('start') ?? Number.NaN);
  let spent = Number(record.get('spent') ?? 0);
  if (!(now < windowStart + windowMs)) {
    windowStart = now;
    spent = 0;
    record.set('start', String(now));
    record.set('spent', '0');
  }
  let reserved = 0;
  for (const [field, value] of [...record]) {
    if (!field.startsWith('r:')) continue;
    const [amount, expires] = value.split(':').map(Number);
    if (expires! <= now) record.delete(field);
    else reserved += amount!;
  }
  return { spent, reserved, windowStart };
}
