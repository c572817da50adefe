import type { ServerResponse } from 'node:http';
import { perSecond, type RateLimit, type RateLimits } from '../../../config.js';
import { RateExceededError } from '../../../errors.js';
import type { Logger } from '../../../log.js';
import { MemoryStore } from '../../../store/memory.js';
import { type Store, storeKey, type TakeResult, type TokenBucket } from '../../../store/store.js';
import { refuse } from './refuse.js';

/** What a limit counts: every request of a key, every request from an address, a key's paid calls. */
type RateScope = 'key' | 'address' | 'paid';

/** A request refused by a limit, for the audit log (never a key, only its fingerprint). */
export interface RateRefusal {
  scope: Exclude<RateScope, 'paid'>;
  /** The key's fingerprint. */
  key: string;
  address?: string;
  retryAfterMs: number;
}

/** Refusals remembered on this replica: a flood is refused without a store round trip each. */
const MAX_REMEMBERED = 10_000;
/** A client-written address (with a misconfigured --trust-proxy) must not make an unbounded store key. */
const MAX_ADDRESS = 64;
/** After the store failed to answer, how long this replica counts on its own before asking it again. */
const STORE_RETRY_MS = 5_000;

/**
 * The request-rate limits of the HTTP endpoint (`--rate-limit`): token buckets per key fingerprint
 * and per client address, counted for every request before its body is read, and a key's paid
 * calls, counted when a call turns out to spend. The buckets are in the store, so every replica
 * counts against the same ones. A refusal is remembered here until it can end: the buckets only
 * refill with time, and other replicas only take, so asking the store again sooner cannot pass.
 * When the store does not answer, this replica counts in its own buckets (the limits then hold per
 * replica) and asks the store again after STORE_RETRY_MS, so no request waits on a store that is down.
 */
export class RateLimiter {
  private readonly refused = new Map<string, { until: number; refusedBy: number }>();
  private readonly local = new MemoryStore();
  private storeDownUntil = 0;
  private storeFailedAt = 0;

  constructor(
    private readonly limits: RateLimits,
    private readonly store: Store,
    private readonly log: Logger,
    private readonly onRefused?: (refusal: RateRefusal) => void,
  ) {}

  /** True when requests are counted at all (`--rate-limit off`, or only paid=, counts none). */
  get countsRequests(): boolean {
    return Boolean(this.limits.key || this.limits.address);
  }

  /** Counts one request against its key and its address; over either, answers 429 and returns false. */
  async admit(res: ServerResponse, key: string, address: string): Promise<boolean> {
    const scopes: RateRefusal['scope'][] = [];
    const buckets: TokenBucket[] = [];
    const client = address.slice(0, MAX_ADDRESS);
    for (const [scope, id] of [
      ['key', key],
      ['address', client],
    ] as const) {
      const limit = this.limits[scope];
      if (!limit) continue;
      scopes.push(scope);
      buckets.push(bucketOf(scope, id, limit));
    }
    const verdict = await this.take(buckets);
    if (verdict.ok) return true;
    const scope = scopes[verdict.refusedBy]!;
    const wait = seconds(verdict.retryAfterMs);
    const who = scope === 'key' ? 'with this key' : 'from your address';
    refuse(
      res,
      429,
      'rate_exceeded',
      `Too many requests ${who}: this server takes at most ${described(this.limits[scope]!)} ${scope === 'key' ? 'from one key' : 'from one address'}. Wait ${wait} s (Retry-After), then send again.`,
      { 'retry-after': String(wait) },
      { scope, retry_after_ms: verdict.retryAfterMs },
    );
    this.onRefused?.({ scope, key, address: client, retryAfterMs: verdict.retryAfterMs });
    return false;
  }

  /** Counts one paid call of a key; over the limit, throws before anything is reserved or sent. */
  async paid(key: string): Promise<void> {
    const limit = this.limits.paid;
    if (!limit) return;
    const verdict = await this.take([bucketOf('paid', key, limit)]);
    // Not told to onRefused: the refused call is a tool call, which the audit log records as such.
    if (verdict.ok) return;
    throw new RateExceededError(
      `Too many paid calls with this key: this server takes at most ${described(limit)} from one key.`,
      {
        fix: `Nothing was sent and nothing was charged. Wait ${seconds(verdict.retryAfterMs)} s, then call again.`,
        retryAfterMs: verdict.retryAfterMs,
      },
    );
  }

  private async take(buckets: readonly TokenBucket[]): Promise<TakeResult> {
    if (buckets.length === 0) return { ok: true };
    const now = Date.now();
    const id = buckets.length === 1 ? buckets[0]!.key : buckets.map((bucket) => bucket.key).join('\n');
    const known = this.refused.get(id);
    if (known && known.until > now)
      return { ok: false, refusedBy: known.refusedBy, retryAfterMs: known.until - now };
    if (known) this.refused.delete(id);
    const verdict = await this.takeFrom(buckets, now);
    if (!verdict.ok) {
      this.refused.set(id, { until: now + verdict.retryAfterMs, refusedBy: verdict.refusedBy });
      if (this.refused.size > MAX_REMEMBERED) this.refused.delete(this.refused.keys().next().value!);
    }
    return verdict;
  }

  /** From the store's buckets, or from this replica's own while the store does not answer. */
  private async takeFrom(buckets: readonly TokenBucket[], now: number): Promise<TakeResult> {
    if (now >= this.storeDownUntil) {
      try {
        return await this.store.take(buckets);
      } catch (error) {
        this.storeDownUntil = Date.now() + STORE_RETRY_MS;
        // Said once a minute, not once a request.
        if (now - this.storeFailedAt > 60_000) {
          this.storeFailedAt = now;
          this.log.warning('rate limits counted on this replica only: the store did not answer', {
            error: String(error),
          });
        }
      }
    }
    return this.local.take(buckets);
  }

  /** Stops the sweep of this replica's own buckets. */
  async close(): Promise<void> {
    await this.local.close();
  }
}

function bucketOf(scope: RateScope, id: string, limit: RateLimit): TokenBucket {
  return { key: storeKey('rate', scope, id), perSecond: perSecond(limit), burst: limit.burst };
}

/** "50 a second (bursts of 200)". */
function described(limit: RateLimit): string {
  return `${limit.count} a ${limit.unit} (bursts of ${limit.burst})`;
}

/** Whole seconds for Retry-After and messages, at least 1. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
