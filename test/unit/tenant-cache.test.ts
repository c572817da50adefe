import { describe, expect, it } from 'vitest';
import { TenantCache } from '../../src/tenant-cache.js';

function clock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('TenantCache', () => {
  it("keeps each tenant's entries apart", () => {
    const cache = new TenantCache<string>({ perTenant: 5, total: 10, ttlMs: 1_000 });
    cache.forTenant('a').set('k', 'from a');
    expect(cache.forTenant('a').get('k')).toBe('from a');
    expect(cache.forTenant('b').get('k')).toBeUndefined();
    cache.forTenant('b').set('k', 'from b');
    expect(cache.forTenant('a').get('k')).toBe('from a');
    cache.forTenant('b').delete('k');
    expect(cache.forTenant('a').get('k')).toBe('from a');
    expect(cache.forTenant('b').get('k')).toBeUndefined();
  });

  it('forgets an entry once its time is up', () => {
    const time = clock();
    const cache = new TenantCache<number>({ perTenant: 5, total: 10, ttlMs: 1_000 }, time.now);
    const view = cache.forTenant('a');
    view.set('k', 1);
    time.advance(999);
    expect(view.get('k')).toBe(1);
    time.advance(1);
    expect(view.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops expired entries of every tenant on the next write', () => {
    const time = clock();
    const cache = new TenantCache<number>({ perTenant: 5, total: 10, ttlMs: 100 }, time.now);
    cache.forTenant('a').set('1', 1);
    cache.forTenant('b').set('2', 2);
    time.advance(100);
    cache.forTenant('c').set('3', 3);
    expect(cache.size).toBe(1);
  });

  it("drops a tenant's oldest entry past its count, never another tenant's", () => {
    const cache = new TenantCache<number>({ perTenant: 2, total: 10, ttlMs: 1_000 });
    const a = cache.forTenant('a');
    cache.forTenant('b').set('b1', 0);
    a.set('1', 1);
    a.set('2', 2);
    a.set('1', 11); // replacing makes it the newest
    a.set('3', 3);
    expect(a.get('2')).toBeUndefined();
    expect(a.get('1')).toBe(11);
    expect(a.get('3')).toBe(3);
    expect(cache.forTenant('b').get('b1')).toBe(0);
  });

  it('drops the oldest entry of anyone past the total count', () => {
    const cache = new TenantCache<number>({ perTenant: 5, total: 2, ttlMs: 1_000 });
    cache.forTenant('a').set('1', 1);
    cache.forTenant('b').set('2', 2);
    cache.forTenant('c').set('3', 3);
    expect(cache.size).toBe(2);
    expect(cache.forTenant('a').get('1')).toBeUndefined();
    expect(cache.forTenant('c').get('3')).toBe(3);
  });

  it('bounds the weight per tenant and in all, and refuses an entry heavier than a tenant may keep', () => {
    const cache = new TenantCache<Buffer>({
      perTenant: 10,
      total: 10,
      ttlMs: 1_000,
      weigh: (value) => value.length,
      maxTenantWeight: 100,
      maxTotalWeight: 150,
    });
    const a = cache.forTenant('a');
    expect(a.set('big', Buffer.alloc(101))).toBe(false);
    expect(a.get('big')).toBeUndefined();
    a.set('1', Buffer.alloc(60));
    a.set('2', Buffer.alloc(60));
    expect(a.get('1')).toBeUndefined();
    expect(a.get('2')?.length).toBe(60);
    cache.forTenant('b').set('3', Buffer.alloc(60));
    cache.forTenant('b').set('4', Buffer.alloc(40));
    expect(a.get('2')).toBeUndefined();
    expect(cache.forTenant('b').get('3')?.length).toBe(60);
  });
});
