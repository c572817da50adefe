import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../../src/log.js';
import { DEFAULT_SESSION_LIMITS } from '../../../../../src/mcp/http/auth/session-bounds.js';
import { SessionDirectory, type SessionRecord } from '../../../../../src/mcp/http/cluster/directory.js';
import { MemoryStore } from '../../../../../src/store/memory.js';

let store: MemoryStore;
afterEach(async () => {
  await store.close();
});

const log = createLogger('silent');
const record = (id: string, over: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  owner: 'owner-a',
  key: 'key-a',
  address: '10.0.0.1',
  checked: true,
  init: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  createdAt: Date.now(),
  ...over,
});

describe('SessionDirectory', () => {
  it('finds a session another replica opened, and forgets it on every replica when it ends', async () => {
    store = new MemoryStore({ shared: true });
    const a = new SessionDirectory(store, DEFAULT_SESSION_LIMITS, log);
    const b = new SessionDirectory(store, DEFAULT_SESSION_LIMITS, log);
    const changes: unknown[] = [];
    const stop = await b.changes((change) => changes.push(change));
    await a.opened(record('s1'));
    expect(await b.find('s1')).toMatchObject({ id: 's1', owner: 'owner-a' });
    await a.refused('s1');
    expect(await b.find('s1')).toMatchObject({ refused: true });
    await a.end('s1');
    expect(await b.find('s1')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await stop();
    expect(changes).toEqual([
      { id: 's1', change: 'refused' },
      { id: 's1', change: 'ended' },
    ]);
  });

  it('counts every replica’s sessions against the bounds, and lets a key’s longest-idle session give way', async () => {
    store = new MemoryStore({ shared: true });
    const limits = { ...DEFAULT_SESSION_LIMITS, perKey: 2, perAddress: 3, total: 4 };
    const a = new SessionDirectory(store, limits, log);
    const b = new SessionDirectory(store, limits, log);
    await a.opened(record('s1'));
    await new Promise((resolve) => setTimeout(resolve, 2));
    await b.opened(record('s2'));
    expect(await b.admit({ key: 'key-a', address: '10.0.0.1', checked: true })).toBeUndefined();
    // s1 was the key's longest idle: it gave way for the third.
    expect(await a.find('s1')).toBeUndefined();
    expect(await a.find('s2')).toBeDefined();
    await a.opened(record('s3', { key: 'key-b' }));
    await b.opened(record('s4', { key: 'key-c' }));
    expect(await a.admit({ key: 'key-d', address: '10.0.0.1', checked: true })).toMatchObject({
      status: 429,
    });
    expect(await a.admit({ key: 'key-d', address: '10.0.0.9', checked: true })).toBeUndefined();
    await b.opened(record('s5', { key: 'key-e', address: '10.0.0.9' }));
    expect(await a.admit({ key: 'key-f', address: '10.0.0.8', checked: true })).toMatchObject({
      status: 503,
    });
  });
});
