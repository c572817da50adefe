import { randomBytes } from 'node:crypto';
import type { EventStore, JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

/** How many ids of delivered streams a session remembers, so a resume of one is not an error. */
const MAX_DELIVERED_IDS = 64;

interface Stored {
  streamId: string;
  /** The message as sent, kept as text (a parsed object costs several times its size in memory)... */
  json?: string;
  /** ...except the newest event, held as it came until the next one (see `settle`). */
  message?: JSONRPCMessage;
}

/**
 * The recent SSE events of one 2025-era HTTP session, so a client whose connection drops mid-call
 * can reconnect with `Last-Event-ID` and get the rest (progress and the result): nothing is lost
 * to a flaky network. One store per session, so an event id never reaches into another session
 * (and the session serves only the key that opened it); ids start with a secret random to the
 * session, so one cannot be guessed.
 * Bounded in count and in size, the oldest events first; a stream whose reply went out is kept a
 * short grace (for a client that lost the connection just then) and then dropped whole.
 */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<string, Stored>();
  /** The ids of each stream's events still held, so a finished stream leaves without a scan. */
  private readonly streams = new Map<string, Set<string>>();
  /** Streams whose final reply was stored: when (in that order), and the request it answered. */
  private readonly finished = new Map<string, { at: number; reply?: RequestId }>();
  /** The stream each stored reply went on, by its request id: dropped at once when it was delivered. */
  private readonly replies = new Map<RequestId, string>();
  /** Ids of streams delivered whole (the newest few), with their stream. */
  private readonly deliveredIds = new Map<string, string>();
  /** Secret to the session: its ids cannot be guessed, and a counter after it is cheaper than random bytes per event. */
  private readonly prefix = randomBytes(12).toString('base64url');
  private count = 0;
  private size = 0;
  /** The newest event while it is not yet text (and not in `size`). */
  private unsettled?: Stored;

  constructor(
    private readonly maxEvents = 1_000,
    private readonly maxSize = 2 * 1_048_576,
    private readonly graceMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The bytes of messages held now (for tests and bounds). */
  get heldBytes(): number {
    this.settle();
    return this.size;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.dropFinished();
    this.settle();
    const eventId = `${this.prefix}${(this.count++).toString(36)}`;
    this.unsettled = { streamId, message };
    this.events.set(eventId, this.unsettled);
    const ids = this.streams.get(streamId) ?? new Set<string>();
    this.streams.set(streamId, ids.add(eventId));
    if ('id' in message && ('result' in message || 'error' in message)) {
      const reply = message.id;
      this.finished.set(streamId, { at: this.now(), reply });
      if (reply !== undefined) this.replies.set(reply, streamId);
    }
    this.trim();
    return eventId;
  }

  /**
   * The newest event becomes text only once another comes (or a replay or the size is asked for):
   * a reply is usually delivered, and its stream dropped, before that, so it is never serialised
   * here besides the SDK's own serialisation as it goes out (twice is measurable: bench/NOTES.md).
   * Until then it is held as it came, outside the size bound (the newest event always stays anyway).
   */
  private settle(): void {
    const event = this.unsettled;
    if (!event) return;
    this.unsettled = undefined;
    event.json = JSON.stringify(event.message);
    event.message = undefined;
    this.size += event.json.length;
    this.trim();
  }

  /** The oldest events leave until the bounds hold; the newest always stays, however large. */
  private trim(): void {
    while (this.events.size > 1 && (this.events.size > this.maxEvents || this.size > this.maxSize)) {
      // A Map iterates in insertion order: the first entry is the oldest event.
      const [id, event] = this.events.entries().next().value!;
      this.remove(id, event);
    }
  }

  // No getStreamIdForEventId, on purpose: with it the SDK answers 409 to a client that reconnects
  // before the server has noticed its old connection drop (a real network drop can go unnoticed for
  // minutes). Without it, the newer connection takes the stream over. Session and credential are
  // checked before any replay.

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const delivered = this.deliveredIds.get(lastEventId);
    if (delivered !== undefined) return delivered;
    this.settle();
    const streamId = this.events.get(lastEventId)?.streamId;
    if (streamId === undefined) throw new Error(`Event ${lastEventId} is unknown or too old to replay.`);
    // Map order is the order events were stored: everything after the last one seen is replayed.
    let after = false;
    for (const [eventId, event] of this.events) {
      if (!after) {
        after = eventId === lastEventId;
        continue;
      }
      if (event.streamId !== streamId) continue;
      // An event stored while this replay awaits may still be unsettled.
      const message = event.message ?? (JSON.parse(event.json!) as JSONRPCMessage);
      // The SDK stores an empty priming message at the start of each stream; it is not a message to replay.
      if (!('jsonrpc' in message)) continue;
      await send(eventId, message);
    }
    return streamId;
  }

  /**
   * The response carrying the reply to `requestId` was written out whole: its stream is not kept
   * for the grace. Held that long, every reply outlived the young generation and ended as old-space
   * garbage; the grace stays for a stream whose connection closed before its reply went out.
   */
  delivered(requestId: RequestId): void {
    const streamId = this.replies.get(requestId);
    if (streamId === undefined) return;
    // A client may resume the stream anyway (it cannot know its reply arrived whole): the last
    // few ids of delivered streams are remembered, and such a resume gets nothing more to replay
    // instead of an error.
    for (const id of this.streams.get(streamId) ?? []) this.deliveredIds.set(id, streamId);
    while (this.deliveredIds.size > MAX_DELIVERED_IDS)
      this.deliveredIds.delete(this.deliveredIds.keys().next().value!);
    this.drop(streamId);
  }

  /** Streams whose reply went out more than the grace ago leave with all their events (oldest first, so it stops at the first still in grace). */
  private dropFinished(): void {
    // Nearly always empty: delivered streams leave at once (and an iterator per event was measurable).
    if (this.finished.size === 0) return;
    const before = this.now() - this.graceMs;
    for (const [streamId, { at }] of this.finished) {
      if (at > before) return;
      this.drop(streamId);
    }
  }

  private drop(streamId: string): void {
    const reply = this.finished.get(streamId)?.reply;
    if (reply !== undefined && this.replies.get(reply) === streamId) this.replies.delete(reply);
    this.finished.delete(streamId);
    for (const id of this.streams.get(streamId) ?? []) {
      const event = this.events.get(id);
      if (event) this.remove(id, event);
    }
    this.streams.delete(streamId);
  }

  private remove(id: string, event: Stored): void {
    this.events.delete(id);
    if (event === this.unsettled) this.unsettled = undefined;
    this.size -= event.json?.length ?? 0;
    const ids = this.streams.get(event.streamId);
    ids?.delete(id);
    if (ids?.size === 0 && !this.finished.has(event.streamId)) this.streams.delete(event.streamId);
  }
}
