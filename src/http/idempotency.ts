import { createHash, randomUUID } from 'node:crypto';
import {
  AbortedError,
  ConnectionError,
  ServerError,
  TimeoutError,
  UpstreamInvalidError,
  UpstreamTimeoutError,
} from '../errors.js';

/**
 * `Idempotency-Key`s for creates. The HTTP client already resends the same key when a reply is
 * lost; this keeps it across calls too. A create whose outcome is unknown (the reply was lost or
 * unreadable, a timeout, a 5xx, a cancel) leaves its key here, and the same create asked again by
 * the same credential reuses it, so the platform replays the first result instead of making a
 * second one. A create that got a clear answer forgets its key: asking again on purpose makes a new one.
 */
export class IdempotencyKeys {
  private readonly pending = new Map<string, { key: string; at: number }>();

  constructor(
    /** Below the day for which the platform remembers a key. */
    private readonly ttlMs = 23 * 3_600_000,
    private readonly max = 500,
    private readonly now: () => number = Date.now,
  ) {}

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
    const id = idOf(owner, request);
    this.prune();
    const key = this.pending.get(id)?.key ?? randomUUID();
    this.pending.set(id, { key, at: this.now() });
    try {
      const result = await send(key);
      if (!options.hold) this.pending.delete(id);
      return result;
    } catch (error) {
      if (!outcomeUnknown(error)) this.pending.delete(id);
      throw error;
    }
  }

  /** Forgets a held key: the create's result has reached the person. */
  release(owner: string, request: unknown): void {
    this.pending.delete(idOf(owner, request));
  }

  /** How many creates wait for a retry (tests). */
  get size(): number {
    return this.pending.size;
  }

  private prune(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [id, entry] of this.pending) if (entry.at <= cutoff) this.pending.delete(id);
    // Oldest first (insertion order): a flood of failing creates cannot grow the map without bound.
    for (const id of this.pending.keys()) {
      if (this.pending.size < this.max) break;
      this.pending.delete(id);
    }
  }
}

const idOf = (owner: string, request: unknown): string =>
  createHash('sha256').update(owner).update('\n').update(canonicalJson(request)).digest('hex');

/** Did the platform perhaps act without us hearing the result? */
export function outcomeUnknown(error: unknown): boolean {
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
