import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../../../../../src/mcp/http/sessions/event-store-memory.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n },
});

async function replay(store: SessionEventStore, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const streamId = await store.replayEventsAfter(after, {
    send: async (id, message) => {
      sent.push([id, message]);
    },
  });
  return { streamId, sent };
}

describe('SessionEventStore', () => {
  it('replays the events of the same stream after the given id, in order, skipping priming events', async () => {
    const store = new SessionEventStore();
    const priming = await store.storeEvent('a', {} as JSONRPCMessage);
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(100));
    const second = await store.storeEvent('a', note(2));
    const third = await store.storeEvent('a', note(3));

    const fromPriming = await replay(store, priming);
    expect(fromPriming.streamId).toBe('a');
    expect(fromPriming.sent.map(([id]) => id)).toEqual([first, second, third]);

    const fromFirst = await replay(store, first);
    expect(fromFirst.sent).toEqual([
      [second, note(2)],
      [third, note(3)],
    ]);
  });

  it('replays an event stored while the replay is under way', async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('a', note(2));
    const sent: JSONRPCMessage[] = [];
    await store.replayEventsAfter(first, {
      send: async (_id, message) => {
        sent.push(message);
        if (sent.length === 1) await store.storeEvent('a', note(3));
      },
    });
    expect(sent).toEqual([note(2), note(3)]);
  });

  it('forgets the oldest events beyond its bound, and refuses to replay from a forgotten one', async () => {
    const store = new SessionEventStore(3);
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await store.storeEvent('a', note(n)));
    await expect(replay(store, ids[0]!)).rejects.toThrow(/unknown or too old/);
    expect((await replay(store, ids[2]!)).sent.map(([, m]) => m)).toEqual([note(4), note(5)]);
  });

  it('also keeps its total size bounded, dropping the oldest events first', async () => {
    const big = (n: number): JSONRPCMessage => ({
      jsonrpc: '2.0',
      id: n,
      result: { content: [{ type: 'text', text: 'x'.repeat(400) }] },
    });
    const store = new SessionEventStore(1_000, 1_000);
    const ids = [];
    for (let n = 1; n <= 4; n++) ids.push(await store.storeEvent('a', big(n)));
    // Each is about 450 characters: two fit in 1,000.
    await expect(replay(store, ids[1]!)).rejects.toThrow(/unknown or too old/);
    expect((await replay(store, ids[2]!)).sent.map(([, m]) => m)).toEqual([big(4)]);
    // One event larger than the whole budget is still kept, alone.
    const huge = await store.storeEvent('a', { jsonrpc: '2.0', id: 9, result: { text: 'y'.repeat(5_000) } });
    await expect(replay(store, ids[3]!)).rejects.toThrow(/unknown or too old/);
    expect((await replay(store, huge)).sent).toEqual([]);
  });
});

describe('SessionEventStore, once a reply went out', () => {
  it('keeps the stream for a short grace, then drops all of its events', async () => {
    let clock = 0;
    const store = new SessionEventStore(1_000, 8 * 1_048_576, 30_000, () => clock);
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('a', { jsonrpc: '2.0', id: 1, result: {} });
    const other = await store.storeEvent('b', note(2));
    // Within the grace a client that lost the reply still gets it.
    expect((await replay(store, first)).sent.map(([, m]) => m)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
    clock = 30_001;
    await store.storeEvent('b', note(3));
    await expect(replay(store, first)).rejects.toThrow(/unknown or too old/);
    // A stream still open is untouched.
    expect((await replay(store, other)).sent.map(([, m]) => m)).toEqual([note(3)]);
  });
});

describe('SessionEventStore, once a reply was delivered', () => {
  it('drops a delivered stream at once, answers a resume of it with nothing more, and keeps the others', async () => {
    const store = new SessionEventStore(1_000, 8 * 1_048_576, 30_000, () => 0);
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('a', { jsonrpc: '2.0', id: 7, result: { text: 'x'.repeat(100_000) } });
    const other = await store.storeEvent('b', note(2));
    await store.storeEvent('b', { jsonrpc: '2.0', id: 8, result: {} });
    // A request whose stream closed before its reply was stored: nothing to let go of.
    store.delivered(9);
    store.delivered(7);
    // The delivered stream's bytes are gone: a size bound just above the rest now holds.
    expect(store.heldBytes).toBeLessThan(1_000);
    // A client that resumes it anyway gets its stream back with nothing to replay, not an error.
    expect(await replay(store, first)).toEqual({ streamId: 'a', sent: [] });
    expect((await replay(store, other)).sent.map(([, m]) => m)).toEqual([
      { jsonrpc: '2.0', id: 8, result: {} },
    ]);
    // Only the newest ids of delivered streams are remembered.
    for (let i = 10; i < 80; i++) {
      await store.storeEvent(`s${i}`, { jsonrpc: '2.0', id: i, result: {} });
      store.delivered(i);
    }
    await expect(replay(store, first)).rejects.toThrow(/unknown or too old/);
  });
});
