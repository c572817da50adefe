import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../../../src/config.js';
import { RateExceededError } from '../../../../../src/errors.js';
import type { Logger } from '../../../../../src/log.js';
import { RateLimiter, type RateRefusal } from '../../../../../src/mcp/http/auth/rate-limit.js';
import { MemoryStore } from '../../../../../src/store/memory.js';
import type { Store, TokenBucket } from '../../../../../src/store/store.js';

const stores: MemoryStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

/** A memory store that counts how often it is asked to take. */
function countingStore() {
  const store = new MemoryStore();
  stores.push(store);
  const asked = { takes: 0 };
  const take = store.take.bind(store);
  store.take = (buckets: readonly TokenBucket[]) => {
    asked.takes++;
    return take(buckets);
  };
  return { store, asked };
}

/** What `refuse()` wrote. */
function response() {
  const seen: { status?: number; headers: Record<string, string>; body?: Record<string, unknown> } = {
    headers: {},
  };
  const res = {
    setHeader: (name: string, value: string) => {
      seen.headers[name] = value;
    },
    writeHead: (status: number) => {
      seen.status = status;
      return {
        end: (body: string) => {
          seen.body = JSON.parse(body);
        },
      };
    },
  };
  return { res: res as unknown as ServerResponse, seen };
}

const quiet: Logger = { debug() {}, info() {}, warning() {}, error() {} };
const limits = (spec: string) => loadConfig({ rateLimit: spec }, {}).rateLimit;

describe('RateLimiter', () => {
  it('remembers a refusal until it can pass, so a flood is refused without asking the store each time', async () => {
    const { store, asked } = countingStore();
    const refusals: RateRefusal[] = [];
    const limiter = new RateLimiter(limits('key=1/m:2,address=off'), store, quiet, (r) => refusals.push(r));
    expect(await limiter.admit(response().res, 'key-a', '203.0.113.1')).toBe(true);
    expect(await limiter.admit(response().res, 'key-a', '203.0.113.1')).toBe(true);
    const { res, seen } = response();
    expect(await limiter.admit(res, 'key-a', '203.0.113.1')).toBe(false);
    expect(seen.status).toBe(429);
    expect(Number(seen.headers['retry-after'])).toBeGreaterThan(50);
    expect(asked.takes).toBe(3);
    for (let i = 0; i < 10; i++)
      expect(await limiter.admit(response().res, 'key-a', '203.0.113.1')).toBe(false);
    expect(asked.takes).toBe(3);
    expect(refusals).toHaveLength(11);
    expect(refusals[0]).toMatchObject({ scope: 'key', key: 'key-a', address: '203.0.113.1' });
    // Another key is its own bucket.
    expect(await limiter.admit(response().res, 'key-b', '203.0.113.1')).toBe(true);
  });

  it('names the limit that refused: the address, whatever the key', async () => {
    const { store } = countingStore();
    const limiter = new RateLimiter(limits('key=1/m:5,address=1/m:1'), store, quiet);
    expect(await limiter.admit(response().res, 'key-a', '198.51.100.2')).toBe(true);
    const { res, seen } = response();
    expect(await limiter.admit(res, 'key-b', '198.51.100.2')).toBe(false);
    expect(seen.body).toMatchObject({
      error: {
        message: expect.stringMatching(
          /^Too many requests from your address: .* at most 1 a minute \(bursts of 1\)/,
        ),
        data: { reason: 'rate_exceeded', scope: 'address' },
      },
    });
  });

  it('refuses a paid call past the paid limit with how long to wait, and counts no request', async () => {
    const { store } = countingStore();
    const limiter = new RateLimiter(limits('key=off,address=off,paid=1/m:1'), store, quiet);
    expect(limiter.countsRequests).toBe(false);
    await limiter.paid('key-a');
    const refused = await limiter.paid('key-a').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateExceededError);
    expect((refused as RateExceededError).retryAfterMs).toBeGreaterThan(50_000);
    expect((refused as RateExceededError).fix).toMatch(
      /^Nothing was sent and nothing was charged\. Wait \d+ s/,
    );
    await limiter.paid('key-b');
  });

  it('counts on this replica while the store does not answer, asks it again 5 s later, and says so once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const warnings: string[] = [];
    const asked = { takes: 0 };
    const broken = {
      take: async () => {
        asked.takes++;
        throw new Error('store down');
      },
    } as unknown as Store;
    const limiter = new RateLimiter(limits('key=1/m:2,address=off,paid=1/m:1'), broken, {
      ...quiet,
      warning: (m) => warnings.push(m),
    });
    try {
      expect(await limiter.admit(response().res, 'key-a', '203.0.113.1')).toBe(true);
      expect(await limiter.admit(response().res, 'key-a', '203.0.113.1')).toBe(true);
      const { res, seen } = response();
      expect(await limiter.admit(res, 'key-a', '203.0.113.1')).toBe(false);
      expect(seen.status).toBe(429);
      await limiter.paid('key-a');
      await expect(limiter.paid('key-a')).rejects.toBeInstanceOf(RateExceededError);
      // Not a store round trip a request while it is down.
      expect(asked.takes).toBe(1);
      vi.setSystemTime(Date.now() + 5_000);
      expect(await limiter.admit(response().res, 'key-b', '203.0.113.1')).toBe(true);
      expect(asked.takes).toBe(2);
      expect(warnings).toEqual(['rate limits counted on this replica only: the store did not answer']);
    } finally {
      vi.useRealTimers();
      await limiter.close();
    }
  });
});
