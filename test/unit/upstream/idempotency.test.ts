import { describe, expect, it } from 'vitest';
import { BadRequestError, ConnectionError, ServerError } from '../../../src/errors.js';
import { MemoryStore } from '../../../src/store/memory.js';
import { canonicalJson, IdempotencyKeys } from '../../../src/upstream/idempotency.js';

const lost = () => new ConnectionError('reply lost');

describe('IdempotencyKeys', () => {
  it('reuses the key of a create whose reply was lost, for the same owner and body', async () => {
    const keys = new IdempotencyKeys();
    const seen: string[] = [];
    await expect(
      keys.run('owner', { name: 'ci', limit: 5 }, async (key) => {
        seen.push(key);
        throw lost();
      }),
    ).rejects.toThrow('reply lost');
    // Same body in another key order: the same create.
    await keys.run('owner', { limit: 5, name: 'ci' }, async (key) => seen.push(key));
    expect(seen[0]).toBe(seen[1]);
    expect(await keys.held('owner')).toBe(0);
  });

  it('makes a new key once a create got an answer, success or a clear refusal', async () => {
    const keys = new IdempotencyKeys();
    const seen: string[] = [];
    await keys.run('owner', { name: 'ci' }, async (key) => seen.push(key));
    await expect(
      keys.run('owner', { name: 'ci' }, async (key) => {
        seen.push(key);
        throw new BadRequestError('bad', { status: 400 });
      }),
    ).rejects.toThrow('bad');
    await keys.run('owner', { name: 'ci' }, async (key) => seen.push(key));
    expect(new Set(seen).size).toBe(3);
  });

  it('keeps keys apart per owner and per body', async () => {
    const keys = new IdempotencyKeys();
    const seen: string[] = [];
    const fail = (key: string) => {
      seen.push(key);
      return Promise.reject(new ServerError('503', { status: 503 }));
    };
    await keys.run('a', { name: 'ci' }, fail).catch(() => {});
    await keys.run('b', { name: 'ci' }, fail).catch(() => {});
    await keys.run('a', { name: 'other' }, fail).catch(() => {});
    expect(new Set(seen).size).toBe(3);
    expect([await keys.held('a'), await keys.held('b')]).toEqual([2, 1]);
  });

  it('forgets a kept key after its time, and never keeps more than its bound', async () => {
    let now = 0;
    const keys = new IdempotencyKeys(new MemoryStore({ now: () => now }), { ttlMs: 1_000, maxPerOwner: 2 });
    const seen: string[] = [];
    const fail = (key: string) => {
      seen.push(key);
      return Promise.reject(lost());
    };
    await keys.run('a', 1, fail).catch(() => {});
    now = 2_000;
    await keys.run('a', 1, fail).catch(() => {});
    expect(seen[0]).not.toBe(seen[1]);
    await keys.run('a', 2, fail).catch(() => {});
    await keys.run('a', 3, fail).catch(() => {});
    expect(await keys.held('a')).toBe(2);
  });

  it('holds the key of a success until released, so a call that runs again replays it', async () => {
    const keys = new IdempotencyKeys();
    const seen: string[] = [];
    await keys.run('owner', { name: 'ci' }, async (key) => seen.push(key), { hold: true });
    await keys.run('owner', { name: 'ci' }, async (key) => seen.push(key), { hold: true });
    expect(seen[1]).toBe(seen[0]);
    await keys.release('owner', { name: 'ci' });
    await keys.run('owner', { name: 'ci' }, async (key) => seen.push(key));
    expect(seen[2]).not.toBe(seen[0]);
    expect(await keys.held('owner')).toBe(0);
  });

  it('shares kept keys through a shared store, per owner', async () => {
    const store = new MemoryStore({ shared: true });
    const [here, there] = [new IdempotencyKeys(store), new IdempotencyKeys(store)];
    const seen: string[] = [];
    await here.run('secret-token', { name: 'ci' }, async (key) => seen.push(key), { hold: true });
    await there.run('secret-token', { name: 'ci' }, async (key) => seen.push(key), { hold: true });
    await there.run('other-token', { name: 'ci' }, async (key) => seen.push(key), { hold: true });
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).not.toBe(seen[0]);
  });

  it('writes JSON with sorted keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    );
  });
});
