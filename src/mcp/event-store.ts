import { randomBytes } from 'node:crypto';
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

interface Stored {
  streamId: string;
  message: JSONRPCMessage;
  /** Its size as sent (JSON characters): results with inline media can be large. */
  size: number;
}

/**
 * The recent SSE events of one HTTP session, so a client whose connection drops mid-call can
 * reconnect with `Last-Event-ID` and get the rest (progress and the result): nothing is lost to a
 * flaky network. One store per session, so an event id never reaches into another session (and the
 * session serves only the key that opened it); ids are random, so one cannot be guessed; bounded
 * in count and in size (a result with inline media can weigh a megabyte), the oldest events go first.
 */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<string, Stored>();
  private size = 0;

  constructor(
    private readonly maxEvents = 1_000,
    private readonly maxSize = 8 * 1_048_576,
  ) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = randomBytes(12).toString('base64url');
    const size = JSON.stringify(message).length;
    this.events.set(eventId, { streamId, message, size });
    this.size += size;
    // A Map iterates in insertion order: the first entries are the oldest events. The newest
    // event always stays, however large.
    for (const [id, event] of this.events) {
      if (this.events.size <= 1 || (this.events.size <= this.maxEvents && this.size <= this.maxSize)) break;
      this.events.delete(id);
      this.size -= event.size;
    }
    return eventId;
  }

  // No getStreamIdForEventId, on purpose: with it the SDK answers 409 to a client that reconnects
  // before the server has noticed its old connection drop (a real network drop can go unnoticed for
  // minutes). Without it, the newer connection takes the stream over. Session and credential are
  // checked before any replay.

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = this.events.get(lastEventId)?.streamId;
    if (streamId === undefined) throw new Error(`Event ${lastEventId} is unknown or too old to replay.`);
    // Map order is the order events were stored: everything after the last one seen is replayed.
    let after = false;
    for (const [eventId, event] of this.events) {
      if (!after) {
        after = eventId === lastEventId;
        continue;
      }
      // The SDK stores an empty priming message at the start of each stream; it is not a message to replay.
      if (event.streamId !== streamId || !('jsonrpc' in event.message)) continue;
      await send(eventId, event.message);
    }
    return streamId;
  }
}
