import { describe, expect, it } from 'vitest';
import { parseCacheControl, ReplyCache } from '../../../src/upstream/cache.js';

describe('parseCacheControl', () => {
  it('reads max-age, stale-while-revalidate and private', () => {
    expect(parseCacheControl('public, max-age=300, stale-while-revalidate=3600')).toEqual({
      maxAgeMs: 300_000,
      staleMs: 3_600_000,
      private: false,
    });
    expect(parseCacheControl('private, max-age="60"')).toEqual({
      maxAgeMs: 60_000,
      staleMs: 0,
      private: true,
    });
  });

  it('keeps nothing for no-store, no-cache, a zero or missing max-age, or no header', () => {
    for (const header of [
      'no-store, max-age=300',
      'no-cache',
      'max-age=0',
      'public',
      'max-age=x',
      undefined,
    ]) {
      expect(parseCacheControl(header)).toBeUndefined();
    }
  });
});

describe('ReplyCache', () => {
  const setup = () => {
    let clock = 1_000_000;
    const cache = new ReplyCache<number>(() => clock);
    let loads = 0;
    const load = (header: string | undefined) => async () => {
      loads += 1;
      const headers: Record<string, string> = header ? { 'cache-control': header } : {};
      return { value: loads, headers };
    };
    return {
      cache,
      load,
      loads: () => loads,
      tick: (ms: number) => {
        clock += ms;
      },
    };
  };

  it('serves a fresh reply from the cache for max-age, and loads again after the stale window', async () => {
    const t = setup();
    const header = 'public, max-age=300, stale-while-revalidate=3600';
    expect(await t.cache.get('k', 'a', t.load(header))).toBe(1);
    t.tick(299_000);
    expect(await t.cache.get('k', 'b', t.load(header))).toBe(1);
    expect(t.loads()).toBe(1);
    t.tick(300_000 + 3_600_000);
    expect(await t.cache.get('k', 'a', t.load(header))).toBe(2);
  });

  it('serves a stale reply within stale-while-revalidate while refreshing it in the background', async () => {
    const t = setup();
    const header = 'max-age=10, stale-while-revalidate=100';
    await t.cache.get('k', 'a', t.load(header));
    t.tick(50_000);
    expect(await t.cache.get('k', 'a', t.load(header))).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(t.loads()).toBe(2);
    expect(await t.cache.get('k', 'a', t.load(header))).toBe(2);
  });

  it('never keeps a reply past max-age when it has no stale-while-revalidate', async () => {
    const t = setup();
    await t.cache.get('k', 'a', t.load('max-age=10'));
    t.tick(10_000);
    expect(await t.cache.get('k', 'a', t.load('max-age=10'))).toBe(2);
  });

  it('does not keep a reply without a cache policy', async () => {
    const t = setup();
    await t.cache.get('k', 'a', t.load(undefined));
    expect(await t.cache.get('k', 'a', t.load(undefined))).toBe(2);
  });

  it('keeps a private reply for its own tenant only', async () => {
    const t = setup();
    expect(await t.cache.get('k', 'alice', t.load('private, max-age=60'))).toBe(1);
    expect(await t.cache.get('k', 'alice', t.load('private, max-age=60'))).toBe(1);
    expect(await t.cache.get('k', 'bob', t.load('private, max-age=60'))).toBe(2);
    expect(await t.cache.get('k', 'alice', t.load('private, max-age=60'))).toBe(1);
  });

  it('shares one load between callers that arrive while it runs', async () => {
    const t = setup();
    const both = await Promise.all([
      t.cache.get('k', 'a', t.load('max-age=60')),
      t.cache.get('k', 'a', t.load('max-age=60')),
    ]);
    expect(both).toEqual([1, 1]);
    expect(t.loads()).toBe(1);
  });

  it('does not keep a failed load', async () => {
    const t = setup();
    await expect(
      t.cache.get('k', 'a', async () => {
        throw new Error('down');
      }),
    ).rejects.toThrow('down');
    expect(await t.cache.get('k', 'a', t.load('max-age=60'))).toBe(1);
  });
});
