import { z } from 'zod';
import { ALL_TOOLSETS, type Toolset } from '../../../config.js';
import type { Logger } from '../../../log.js';
import { type Store, storeKey } from '../../../store/store.js';
import type { SessionLimits, SessionRefusal } from '../auth/session-bounds.js';

/** The client's initialize, as a replica that re-creates the session replays it to its server. */
export const InitParams = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()),
  clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
});
export type InitParams = z.infer<typeof InitParams>;

/** A 2025 session as every replica knows it: fingerprints, never a credential. */
export const SessionRecord = z.object({
  id: z.string(),
  /** Fingerprint of everything the caller sent: only the same set reaches the session. */
  owner: z.string(),
  /** Fingerprint of the key alone. */
  key: z.string(),
  address: z.string(),
  checked: z.boolean(),
  toolsets: z.array(z.enum(ALL_TOOLSETS as [Toolset, ...Toolset[]])).optional(),
  init: InitParams,
  /** The platform refused the key during the session: its next request is told to sign in again. */
  refused: z.boolean().optional(),
  createdAt: z.number(),
});
export type SessionRecord = z.infer<typeof SessionRecord>;

/** What changed about a session, told to every replica (each may hold the session's transport). */
export type SessionChange = { id: string; change: 'ended' | 'refused' };

const CHANGES = storeKey('sessions-changed');
/** A session's last-seen time is written at most this often per replica. */
const TOUCH_EVERY_MS = 5_000;

/**
 * The 2025 sessions of every replica, in the shared store: a session opened on one replica is
 * re-created by any other from its record, and the bounds on sessions (per key, per address,
 * unconfirmed keys, in total) count every replica's. A session ends everywhere when its client
 * deletes it, its key is refused, or it gives way to the same key's newer sessions.
 */
export class SessionDirectory {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly limits: SessionLimits,
    private readonly log: Logger,
  ) {}

  /** Every replica's sessions under the bounds, before a new one opens (a key's longest idle gives way). */
  async admit(
    record: Pick<SessionRecord, 'key' | 'address' | 'checked'>,
  ): Promise<SessionRefusal | undefined> {
    const since = Date.now() - this.limits.idleMs;
    if ((await this.store.countFrom(allKey(), since)) >= this.limits.total)
      return {
        ok: false,
        status: 503,
        message: 'The server holds as many sessions as it can; try again later.',
      };
    if ((await this.store.countFrom(addressKey(record.address), since)) >= this.limits.perAddress)
      return {
        ok: false,
        status: 429,
        message: `Your address already has ${this.limits.perAddress} sessions; close some (DELETE) first.`,
      };
    if (!record.checked && (await this.store.countFrom(uncheckedKey(), since)) >= this.limits.unchecked)
      return {
        ok: false,
        status: 503,
        message:
          'The platform cannot confirm keys right now, and no more unconfirmed sessions are taken; try again later.',
      };
    if ((await this.store.countFrom(keyKey(record.key), since)) >= this.limits.perKey) {
      const [idlest] = await this.store.members(keyKey(record.key), { lowestFirst: true, limit: 1 });
      if (idlest) await this.end(idlest);
    }
    return undefined;
  }

  /** The session answered initialize: every replica can find it now. */
  async opened(record: SessionRecord): Promise<void> {
    await this.store.set(recordKey(record.id), JSON.stringify(record), this.limits.idleMs);
    await this.index(record, Date.now());
    this.touched.set(record.id, Date.now());
  }

  async find(id: string): Promise<SessionRecord | undefined> {
    const text = await this.store.get(recordKey(id));
    if (!text) return undefined;
    try {
      const record = SessionRecord.safeParse(JSON.parse(text));
      return record.success ? record.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** A request on the session: it stays alive for another idle time (written every few seconds at most). */
  touch(record: Pick<SessionRecord, 'id' | 'key' | 'address' | 'checked'>): void {
    const now = Date.now();
    if (now - (this.touched.get(record.id) ?? 0) < TOUCH_EVERY_MS) return;
    this.touched.set(record.id, now);
    if (this.touched.size > 50_000) this.touched.delete(this.touched.keys().next().value!);
    Promise.all([this.store.touch(recordKey(record.id), this.limits.idleMs), this.index(record, now)]).catch(
      (error: unknown) => this.log.warning(`could not keep a session alive in the store: ${String(error)}`),
    );
  }

  /** The platform refused the session's key: every replica answers its next request with 401. */
  async refused(id: string): Promise<void> {
    const record = await this.find(id);
    if (record)
      await this.store.set(recordKey(id), JSON.stringify({ ...record, refused: true }), this.limits.idleMs);
    await this.store.publish(CHANGES, JSON.stringify({ id, change: 'refused' } satisfies SessionChange));
  }

  /** The session is over on every replica. */
  async end(id: string): Promise<void> {
    const record = await this.find(id);
    await this.store.delete(recordKey(id));
    this.touched.delete(id);
    if (record) {
      await Promise.all([
        this.store.unindex(allKey(), id),
        this.store.unindex(uncheckedKey(), id),
        this.store.unindex(keyKey(record.key), id),
        this.store.unindex(addressKey(record.address), id),
      ]);
    }
    await this.store.publish(CHANGES, JSON.stringify({ id, change: 'ended' } satisfies SessionChange));
  }

  /** Calls `listener` with each change any replica makes to any session. */
  changes(listener: (change: SessionChange) => void): Promise<() => Promise<void>> {
    return this.store.subscribe(CHANGES, (text) => {
      try {
        const change: unknown = JSON.parse(text);
        if (isChange(change)) listener(change);
      } catch {
        // Not ours: ignored.
      }
    });
  }

  private async index(record: Pick<SessionRecord, 'id' | 'key' | 'address' | 'checked'>, score: number) {
    const bounds = { maxItems: Math.max(this.limits.total, 1) * 2, ttlMs: this.limits.idleMs };
    await Promise.all([
      this.store.index(allKey(), record.id, score, bounds),
      this.store.index(keyKey(record.key), record.id, score, bounds),
      this.store.index(addressKey(record.address), record.id, score, bounds),
      record.checked ? Promise.resolve([]) : this.store.index(uncheckedKey(), record.id, score, bounds),
    ]);
  }
}

function isChange(value: unknown): value is SessionChange {
  if (typeof value !== 'object' || value === null) return false;
  const { id, change } = value as Record<string, unknown>;
  return typeof id === 'string' && (change === 'ended' || change === 'refused');
}

const recordKey = (id: string) => storeKey('session', id);
const allKey = () => storeKey('sessions');
const uncheckedKey = () => storeKey('sessions-unchecked');
const keyKey = (key: string) => storeKey('sessions-of-key', key);
const addressKey = (address: string) => storeKey('sessions-of-address', address);
