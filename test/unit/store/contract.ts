/**
 * What every Store must do, the same for the in-memory one and Redis: run by the unit tests on
 * the memory store and by the scale tests on a real redis-server.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/store.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function storeContract(name: string, open: () => Store) {
  describe(`${name} store`, () => {
    const store = () => open();
    const key = (suffix: string) => `test:${name}:${Math.random().toString(36).slice(2)}:${suffix}`;

    it('keeps a value until its time to live runs out', async () => {
      const s = store();
      const k = key('ttl');
      await s.set(k, 'v', 150);
      expect(await s.get(k)).toBe('v');
      await wait(300);
      expect(await s.get(k)).toBeUndefined();
    });

    it('gives a lease to one claimant at a time, renewed and released only by its holder', async () => {
      const s = store();
      const k = key('lease');
      expect(await s.claim(k, 'a', 10_000)).toBe(true);
      expect(await s.claim(k, 'b', 10_000)).toBe(false);
      expect(await s.renew(k, 'b', 10_000)).toBe(false);
      expect(await s.release(k, 'b')).toBe(false);
      expect(await s.renew(k, 'a', 10_000)).toBe(true);
      expect(await s.release(k, 'a')).toBe(true);
      expect(await s.claim(k, 'b', 10_000)).toBe(true);
    });

    it('lets a lease whose holder stopped renewing go to another', async () => {
      const s = store();
      const k = key('expire');
      expect(await s.claim(k, 'a', 150)).toBe(true);
      await wait(300);
      expect(await s.renew(k, 'a', 150)).toBe(false);
      expect(await s.claim(k, 'b', 10_000)).toBe(true);
    });

    it('merges record fields, keeping initial ones that exist', async () => {
      const s = store();
      const k = key('record');
      await s.merge(k, { a: '1' }, 10_000, { created: 'first' });
      await s.merge(k, { b: '2', a: '3' }, 10_000, { created: 'second' });
      expect(await s.fields(k)).toEqual({ a: '3', b: '2', created: 'first' });
      expect(await s.fieldsOfMany([k, key('none')])).toEqual([
        { a: '3', b: '2', created: 'first' },
        undefined,
      ]);
    });

    it('keeps the newest list items within a count and a byte bound, the newest always', async () => {
      const s = store();
      const k = key('list');
      for (const item of ['a', 'b', 'c', 'd'])
        await s.append(k, item, { maxItems: 3, maxBytes: 100, ttlMs: 10_000 });
      expect(await s.items(k)).toEqual(['b', 'c', 'd']);
      await s.append(k, 'x'.repeat(150), { maxItems: 3, maxBytes: 100, ttlMs: 10_000 });
      expect(await s.items(k)).toEqual(['x'.repeat(150)]);
    });

    it('keeps an index within its bound, the lowest scores going first, and counts from a score', async () => {
      const s = store();
      const k = key('index');
      expect(await s.index(k, 'a', 1, { maxItems: 2, ttlMs: 10_000 })).toEqual([]);
      expect(await s.index(k, 'b', 2, { maxItems: 2, ttlMs: 10_000 })).toEqual([]);
      expect(await s.index(k, 'c', 3, { maxItems: 2, ttlMs: 10_000 })).toEqual(['a']);
      expect(await s.members(k)).toEqual(['c', 'b']);
      expect(await s.members(k, { lowestFirst: true, limit: 1 })).toEqual(['b']);
      expect(await s.countFrom(k, 3)).toBe(1);
      await s.unindex(k, 'c');
      expect(await s.members(k)).toEqual([]);
    });

    it('adds to numbers and keeps bytes as they are', async () => {
      const s = store();
      const n = key('n');
      expect(await s.add(n, 0.25, 10_000)).toBe(0.25);
      expect(await s.add(n, 0.5, 10_000)).toBe(0.75);
      expect(Number(await s.get(n))).toBe(0.75);
      const b = key('bytes');
      const bytes = Buffer.from([0, 255, 1, 128]);
      await s.setBytes(b, bytes, 10_000);
      expect(await s.getBytes(b)).toEqual(bytes);
    });

    it('delivers what is published to subscribers until they leave', async () => {
      const s = store();
      const channel = key('channel');
      const seen: string[] = [];
      const leave = await s.subscribe(channel, (message) => seen.push(message));
      await s.publish(channel, 'one');
      for (let i = 0; i < 50 && seen.length < 1; i++) await wait(10);
      await leave();
      await s.publish(channel, 'two');
      await wait(50);
      expect(seen).toEqual(['one']);
    });

    it('reading a spend ledger that does not exist leaves nothing behind (no key without an expiry)', async () => {
      const s = store();
      const k = key('ledger-read');
      const window = { windowMs: 3_600_000 };
      expect(await s.ledger(k, { ...window, op: 'read' })).toMatchObject({ spent: 0, reserved: 0 });
      // The key is still free: the read created nothing.
      expect(await s.claim(k, 'probe', 1_000)).toBe(true);
    });

    it('a spend ledger reserves atomically against its limit, settles, keeps a job reserved, releases', async () => {
      const s = store();
      const k = key('ledger');
      const window = { windowMs: 3_600_000 };
      // 20 reservations of 3 at once against a limit of 10: exactly 3 fit.
      const tries = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          s.ledger(k, { ...window, op: 'reserve', id: `c${i}`, amount: 3, limit: 10, ttlMs: 60_000 }),
        ),
      );
      const held = tries.flatMap((state, i) => (state.ok ? [`c${i}`] : []));
      expect(held).toHaveLength(3);
      expect(await s.ledger(k, { ...window, op: 'read' })).toMatchObject({ spent: 0, reserved: 9 });
      await s.ledger(k, { ...window, op: 'settle', id: held[0]!, amount: 2 });
      await s.ledger(k, { ...window, op: 'release', id: held[1]! });
      await s.ledger(k, {
        ...window,
        op: 'settle',
        id: held[2]!,
        amount: 1,
        keep: { id: 'job:1', amount: 4, ttlMs: 60_000 },
      });
      expect(await s.ledger(k, { ...window, op: 'read' })).toMatchObject({ spent: 3, reserved: 4 });
      expect(
        (await s.ledger(k, { ...window, op: 'reserve', id: 'x', amount: 4, limit: 10, ttlMs: 60_000 })).ok,
      ).toBe(false);
      await s.ledger(k, { ...window, op: 'settle', id: 'job:1', amount: 5 });
      expect(await s.ledger(k, { ...window, op: 'read' })).toMatchObject({ ok: true, spent: 8, reserved: 0 });
      // A job's cost counts once: a second reader settling the same job finds nothing held.
      await s.ledger(k, { ...window, op: 'settle', id: 'job:1', amount: 5, ifHeld: true });
      expect(await s.ledger(k, { ...window, op: 'read' })).toMatchObject({ spent: 8, reserved: 0 });
    });

    it('a spend ledger lets an expired reservation go and starts spent again after its window', async () => {
      const s = store();
      const k = key('ledger-window');
      // Wide margins: on a loaded machine a read may come a few hundred ms late.
      expect(
        (await s.ledger(k, { windowMs: 1_600, op: 'reserve', id: 'a', amount: 5, limit: 10, ttlMs: 600 })).ok,
      ).toBe(true);
      await s.ledger(k, { windowMs: 1_600, op: 'settle', id: 'none', amount: 4 });
      expect(await s.ledger(k, { windowMs: 1_600, op: 'read' })).toMatchObject({ spent: 4, reserved: 5 });
      await wait(1_000);
      expect(await s.ledger(k, { windowMs: 1_600, op: 'read' })).toMatchObject({ spent: 4, reserved: 0 });
      await wait(1_000);
      expect(await s.ledger(k, { windowMs: 1_600, op: 'read' })).toMatchObject({ spent: 0, reserved: 0 });
    });

    it('takes from token buckets atomically: a burst of 5 gives exactly 5 tokens to 20 takers at once', async () => {
      const s = store();
      const bucket = { key: key('bucket'), perSecond: 1 / 60, burst: 5 };
      const tries = await Promise.all(Array.from({ length: 20 }, () => s.take([bucket])));
      expect(tries.filter((result) => result.ok)).toHaveLength(5);
      for (const refused of tries.filter((result) => !result.ok)) {
        // A token a minute: the next one comes within the minute, and not at once.
        expect(refused).toMatchObject({ ok: false, refusedBy: 0 });
        const wait = (refused as { retryAfterMs: number }).retryAfterMs;
        expect(wait).toBeGreaterThan(50_000);
        expect(wait).toBeLessThanOrEqual(60_000);
      }
    });

    it('takes from every bucket or from none, naming the one that was short', async () => {
      const s = store();
      const one = { key: key('one'), perSecond: 1 / 60, burst: 1 };
      const three = { key: key('three'), perSecond: 1 / 60, burst: 3 };
      expect(await s.take([three, one])).toEqual({ ok: true });
      expect(await s.take([three, one])).toMatchObject({ ok: false, refusedBy: 1 });
      // The refused take left `three` as it was: two tokens still there.
      expect(await s.take([three])).toEqual({ ok: true });
      expect(await s.take([three])).toEqual({ ok: true });
      expect(await s.take([three])).toMatchObject({ ok: false, refusedBy: 0 });
    });

    it('refills a bucket at its rate, up to its burst', async () => {
      const s = store();
      const bucket = { key: key('refill'), perSecond: 10, burst: 2 };
      expect(await s.take([bucket])).toEqual({ ok: true });
      expect(await s.take([bucket])).toEqual({ ok: true });
      const refused = await s.take([bucket]);
      expect(refused.ok).toBe(false);
      expect((refused as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(100);
      // Long enough for both tokens back (0.2 s), with a wide margin; never more than the burst.
      await wait(600);
      const tries = await Promise.all([s.take([bucket]), s.take([bucket]), s.take([bucket])]);
      expect(tries.filter((result) => result.ok)).toHaveLength(2);
    });
  });
}
