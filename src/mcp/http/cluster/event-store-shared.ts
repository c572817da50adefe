import { randomBytes } from 'node:crypto';
import { type EventStore, type JSONRPCMessage, parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { carriesSecret } from '../../../secrets.js';
import { type Store, storeKey } from '../../../store/store.js';

/** One stored SSE event of a 2025 session: its random id, its stream, the message as sent. */
export interface StoredEvent {
  id: string;
  stream: string;
  /** Undefined for the empty priming event the SDK stores at the start of each stream. */
  message?: JSONRPCMessage;
  /** When it was stored (ms since the epoch). */
  at?: number;
}

/** An event that carries a message (every one but the priming events). */
export type MessageEvent = StoredEvent & { message: JSONRPCMessage };

interface Wire {
  e: string;
  s: string;
  m: string;
  t?: number;
}

export interface SharedEventBounds {
  maxEvents: number;
  maxBytes: number;
  /** The events go this long after the session's last event (its idle time). */
  ttlMs: number;
}

export const DEFAULT_SHARED_EVENT_BOUNDS: SharedEventBounds = {
  maxEvents: 1_000,
  maxBytes: 8 * 1_048_576,
  ttlMs: 30 * 60_000,
};

/** What the replica's call tracking learns of each event as it is stored, and may veto. */
export interface EventHooks {
  /** False drops the event (a call this replica handed over sends nothing more). */
  accept?(stream: string, message: JSONRPCMessage): boolean;
  stored?(event: StoredEvent): void;
}

/**
 * The resumable events of one 2025 session in the shared store, so a client whose stream dropped
 * resumes with `Last-Event-ID` on any replica. Every event is also published, so a replica that
 * serves the resumed stream relays the events of a call still running elsewhere as they come.
 * Bounded per session in count and bytes (the newest always stays), expiring with the session;
 * ids are random, and only the session's owner reaches its events.
 */
export class SharedEventStore implements EventStore {
  /** Set while a session is re-created on this replica: its replayed handshake is not an event. */
  muted = false;

  constructor(
    private readonly store: Store,
    private readonly session: string,
    private readonly bounds: SharedEventBounds = DEFAULT_SHARED_EVENT_BOUNDS,
    private readonly hooks: EventHooks = {},
  ) {}

  static channel(session: string): string {
    return storeKey('events-live', session);
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = randomBytes(12).toString('base64url');
    if (this.muted || this.hooks.accept?.(streamId, message) === false) return id;
    const wire: Wire = { e: id, s: streamId, m: JSON.stringify(message), t: Date.now() };
    const text = JSON.stringify(wire);
    // A message that carries a secret (a new key's secret shown to the person in a form) is sent
    // live but never written to the store: it is not resumable, and no secret rests there.
    if (carriesSecret(wire.m)) {
      await this.store.publish(SharedEventStore.channel(this.session), text);
      this.hooks.stored?.({ id, stream: streamId, ...('jsonrpc' in message ? { message } : {}) });
      return id;
    }
    await this.store.append(storeKey('events', this.session), text, {
      maxItems: this.bounds.maxEvents,
      maxBytes: this.bounds.maxBytes,
      ttlMs: this.bounds.ttlMs,
    });
    // Published once stored: a relay that reads the list after subscribing misses nothing.
    await this.store.publish(SharedEventStore.channel(this.session), text);
    this.hooks.stored?.({ id, stream: streamId, ...('jsonrpc' in message ? { message } : {}) });
    return id;
  }

  // No getStreamIdForEventId, as in the memory store: a client that reconnects before the server
  // noticed its old connection drop takes the stream over instead of getting 409.

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const found = await this.after(lastEventId);
    if (!found) throw new Error(`Event ${lastEventId} is unknown or too old to replay.`);
    for (const event of found.events) await send(event.id, event.message);
    return found.stream;
  }

  /**
   * The stream of `lastEventId`, its messages stored after it, and those up to it (the client saw
   * them); priming events left out.
   */
  async after(
    lastEventId: string,
  ): Promise<{ stream: string; events: MessageEvent[]; seen: MessageEvent[] } | undefined> {
    const all = (await this.store.items(storeKey('events', this.session))).map(decode);
    const at = all.findIndex((event) => event?.id === lastEventId);
    const stream = all[at]?.stream;
    if (stream === undefined) return undefined;
    const ofStream = (event: StoredEvent | undefined): event is MessageEvent =>
      event?.stream === stream && event.message !== undefined;
    return {
      stream,
      events: all.slice(at + 1).filter(ofStream),
      seen: all.slice(0, at + 1).filter(ofStream),
    };
  }

  /** The messages of `stream` stored in the last `withinMs`, oldest first. */
  async recent(stream: string, withinMs: number): Promise<MessageEvent[]> {
    const since = Date.now() - withinMs;
    return (await this.store.items(storeKey('events', this.session)))
      .map(decode)
      .filter(
        (event): event is MessageEvent =>
          event?.stream === stream && event.message !== undefined && (event.at ?? 0) >= since,
      );
  }

  /** Calls `listener` with each message event of the session stored from now on, by any replica. */
  follow(listener: (event: MessageEvent) => void): Promise<() => Promise<void>> {
    return this.store.subscribe(SharedEventStore.channel(this.session), (text) => {
      const event = decode(text);
      if (event?.message !== undefined) listener({ ...event, message: event.message });
    });
  }
}

/** An event as read back from the store (other processes write it too): checked, or undefined. */
function decode(text: string): StoredEvent | undefined {
  try {
    const wire: unknown = JSON.parse(text);
    if (!isWire(wire)) return undefined;
    const body: unknown = JSON.parse(wire.m);
    const priming = typeof body === 'object' && body !== null && Object.keys(body).length === 0;
    return {
      id: wire.e,
      stream: wire.s,
      ...(typeof wire.t === 'number' ? { at: wire.t } : {}),
      ...(priming ? {} : { message: parseJSONRPCMessage(body) }),
    };
  } catch {
    return undefined;
  }
}

function isWire(value: unknown): value is Wire {
  if (typeof value !== 'object' || value === null) return false;
  const { e, s, m } = value as Record<string, unknown>;
  return typeof e === 'string' && typeof s === 'string' && typeof m === 'string';
}
