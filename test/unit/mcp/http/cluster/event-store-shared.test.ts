import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedEventStore } from '../../../../../src/mcp/http/cluster/event-store-shared.js';
import { MemoryStore } from '../../../../../src/store/memory.js';

const progress = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n },
});
const result: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { content: [] } };

let store: MemoryStore;
afterEach(async () => {
  await store.close();
});

describe('SharedEventStore', () => {
  it('replays, on another replica, what a stream stored after the last event seen, never another stream', async () => {
    store = new MemoryStore({ shared: true });
    const here = new SharedEventStore(store, 'session-1');
    const elsewhere = new SharedEventStore(store, 'session-1');
    const priming = await here.storeEvent('s1', {} as JSONRPCMessage);
    const first = await here.storeEvent('s1', progress(1));
    await here.storeEvent('s2', progress(50));
    await here.storeEvent('s1', progress(2));
    await here.storeEvent('s1', result);
    const replayed: JSONRPCMessage[] = [];
    const stream = await elsewhere.replayEventsAfter(first, {
      send: async (_id, message) => {
        replayed.push(message);
      },
    });
    expect(stream).toBe('s1');
    expect(replayed).toEqual([progress(2), result]);
    // Resuming from the priming event (nothing seen yet) gets the whole stream, without the priming.
    const all = await elsewhere.after(priming);
    expect(all?.events.map((event) => event.message)).toEqual([progress(1), progress(2), result]);
    expect(all?.seen).toEqual([]);
    await expect(elsewhere.replayEventsAfter('made-up', { send: async () => {} })).rejects.toThrow(/unknown/);
  });

  it('keeps sessions apart: an event id of one session finds nothing in another', async () => {
    store = new MemoryStore({ shared: true });
    const id = await new SharedEventStore(store, 'session-a').storeEvent('s', progress(1));
    expect(await new SharedEventStore(store, 'session-b').after(id)).toBeUndefined();
  });

  it('tells followers of each event as any replica stores it, and stores nothing while muted', async () => {
    store = new MemoryStore({ shared: true });
    const writer = new SharedEventStore(store, 'session-1');
    const seen: JSONRPCMessage[] = [];
    const stop = await new SharedEventStore(store, 'session-1').follow((event) => seen.push(event.message));
    writer.muted = true;
    const muted = await writer.storeEvent('s1', progress(1));
    writer.muted = false;
    await writer.storeEvent('s1', progress(2));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await stop();
    expect(seen).toEqual([progress(2)]);
    expect(await writer.after(muted)).toBeUndefined();
  });

  it('keeps a session within its bounds, the oldest events going first', async () => {
    store = new MemoryStore({ shared: true });
    const events = new SharedEventStore(store, 'session-1', {
      maxEvents: 2,
      maxBytes: 1_000_000,
      ttlMs: 60_000,
    });
    const oldest = await events.storeEvent('s1', progress(1));
    const kept = await events.storeEvent('s1', progress(2));
    await events.storeEvent('s1', progress(3));
    expect(await events.after(oldest)).toBeUndefined();
    expect((await events.after(kept))?.events.map((event) => event.message)).toEqual([progress(3)]);
  });
});
