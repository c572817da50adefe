import { createHash, randomUUID } from 'node:crypto';
import {
  AbortedError,
  ConnectionError,
  ServerError,
  TimeoutError,
  UpstreamInvalidError,
  UpstreamTimeoutError,
} from '../errors.js';
import { MemoryStore } from '../store/memory.js';
import { type Store, storeKey } from '../store/store.js';

/**
 * `Idempotency-Key`s for creates. The HTTP client already resends the same key when a reply is
 * lost; this keeps it across calls too. A create whose outcome is unknown (the reply was lost or
 * unreadable, a timeout, a 5xx, a cancel) leaves its key here, and the same create asked again by
 * the same credential reuses it, so the platform replays the first result instead of making a
 * second one. A create that got a clear answer forgets its key: asking again on purpose makes a new one.
 * Keys live in the store, scoped by the owner's fingerprint: with a shared one, the call that runs
 * again on another replica (a 2026-07-28 retry carrying the person's answer) finds the same key.
 */
export class IdempotencyKeys {
  private readonly ttlMs: number;
  private readonly maxPerOwner: number;

  constructor(
    private readonly store: Store = new MemoryStore(),
    limits: {
      /** Below the day for which the platform remembers a key. */
      ttlMs?: number;
      maxPerOwner?: number;
    } = {},
  ) {
    this.ttlMs = limits.ttlMs ?? 23 * 3_600_000;
    this.maxPerOwner = limits.maxPerOwner ?? 500;
  }

  /**
   * Runs `send` with the key for this owner (a credential value, only hashed) and request body.
   * With `hold`, a success keeps the key too, until `release`: for a create whose result must
   * still reach the person, in a call that may run again from its start (an MCP call waiting for
   * the person's answer), so the second run replays the first create instead of making another.
   */
  async run<T>(
    owner: string,
    request: unknown,
    send: (key: string) => Promise<T>,
    options: { hold?: boolean } = {},
  ): Promise<T> {
    const slot = slotOf(owner, request);
    const key = await this.keyFor(slot);
    try {
      const result = await send(key);
      if (!options.hold) await this.forget(slot);
      return result;
    } catch (error) {
      if (!outcomeUnknown(error)) await this.forget(slot);
      throw error;
    }
  }

  /** Forgets a held key: the create's result has reached the person. */
  async release(owner: string, request: unknown): Promise<void> {
    await this.forget(slotOf(owner, request));
  }

  /** How many of the owner's creates wait for a retry (tests). */
  async held(owner: string): Promise<number> {
    return (await this.store.members(indexKey(scopeOf(owner)))).length;
  }

  /** The kept key, or a new one; claimed at once, so two replicas running one create send one key. */
  private async keyFor(slot: Slot): Promise<string> {
    const fresh = randomUUID();
    let key: string = fresh;
    if (!(await this.store.claim(slot.record, fresh, this.ttlMs))) {
      key = (await this.store.get(slot.record)) ?? fresh;
      await this.store.set(slot.record, key, this.ttlMs);
    }
    // Bounded per owner: a flood of failing creates cannot grow the store without end.
    const gone = await this.store.index(slot.index, slot.id, Date.now(), {
      maxItems: this.maxPerOwner,
      ttlMs: this.ttlMs,
    });
    const others = gone.filter((id) => id !== slot.id);
    if (others.length) await this.store.delete(...others.map((id) => recordKey(slot.owner, id)));
    return key;
  }

  private async forget(slot: Slot): Promise<void> {
    await Promise.all([this.store.delete(slot.record), this.store.unindex(slot.index, slot.id)]);
  }
}

interface Slot {
  owner: string;
  id: string;
  record: string;
  index: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The owner's fingerprint: a credential is never written to the store. */
const scopeOf = (owner: string) => sha256(owner).slice(0, 32);
const recordKey = (scope: string, id: string) => storeKey('idempotency', scope, id);
const indexKey = (scope: string) => storeKey('idempotency-of', scope);

function slotOf(owner: string, request: unknown): Slot {
  const scope = scopeOf(owner);
  const id = sha256(canonicalJson(request));
  return { owner: scope, id, record: recordKey(scope, id), index: indexKey(scope) };
}

/** Did the platform perhaps act without us hearing the result? */
function outcomeUnknown(error: unknown): boolean {
  return (
    error instanceof ConnectionError ||
    error instanceof TimeoutError ||
    error instanceof UpstreamTimeoutError ||
    error instanceof ServerError ||
    error instanceof AbortedError ||
    error instanceof UpstreamInvalidError
  );
}

/** JSON with object keys sorted, so key order never makes two requests differ. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    entry && typeof entry === 'object' && !Array.isArray(entry)
      ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : entry,
  );
}
