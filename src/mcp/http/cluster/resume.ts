import type { ServerResponse } from 'node:http';
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import type { Logger } from '../../../log.js';
import { refuse } from '../auth/refuse.js';
import type { CallRecord, CallTracker } from './calls.js';
import type { MessageEvent, SharedEventStore } from './event-store-shared.js';

/**
 * How long a client may wait before reconnecting a dropped stream (the SSE `retry` field): on every
 * 2025 stream, a session's own (sessions/transport.ts) and those relayed across replicas here.
 */
export const RECONNECT_MS = 1_000;

export interface ResumeDeps {
  session: string;
  events: SharedEventStore;
  calls: CallTracker;
  leaseMs: number;
  /** How long a client waits before reconnecting a dropped stream (the SSE `retry` field). */
  retryMs: number;
  /** Continues the call here once its replica's lease has lapsed. */
  takeOver(record: CallRecord, lastProgress: number | undefined): Promise<void>;
  log: Logger;
}

const KEEPALIVE_MS = 15_000;
/** Server requests this recent are sent to a listening stream that opens after them. */
const RECENT_REQUESTS_MS = 10_000;
/** The SDK's id of a session's GET stream (server messages outside any call, and its requests). */
const STANDALONE_STREAM = '_GET_stream';

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * A session's listening stream (GET without Last-Event-ID), with a shared store: what any replica
 * sends outside a call's own stream reaches the client, whichever replica holds this stream. The
 * SDK sends its requests to the client (elicitation, roots) there, from the replica running the
 * call, which is often not this one.
 */
export async function relayStandalone(
  res: ServerResponse,
  deps: Pick<ResumeDeps, 'session' | 'events' | 'retryMs'>,
): Promise<void> {
  // Listened for before any await: a stream closed meanwhile (client gone, drain) must not leave
  // a keepalive behind, which would keep the process alive after it drained.
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  const gone = () => res.writableEnded || res.destroyed;
  const sent = new Set<string>();
  const write = (event: MessageEvent) => {
    if (gone() || event.stream !== STANDALONE_STREAM || sent.has(event.id)) return;
    sent.add(event.id);
    res.write(sseEvent(event));
  };
  const unfollow = await deps.events.follow(write);
  try {
    if (gone()) return;
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': deps.session });
    res.write(`retry: ${deps.retryMs}\n\n`);
    // A request the server sent just before this stream opened (the replica running the call was
    // quicker than the one re-creating the session for this GET) still reaches the client. A client
    // that saw events before resumes with Last-Event-ID instead, so it gets nothing twice.
    for (const event of await deps.events.recent(STANDALONE_STREAM, RECENT_REQUESTS_MS))
      if ('method' in event.message && 'id' in event.message) write(event);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS).unref();
    await closed;
    clearInterval(keepalive);
  } finally {
    await unfollow();
  }
}

function sseEvent(event: MessageEvent): string {
  return `id: ${event.id}\nevent: message\ndata: ${JSON.stringify(event.message)}\n\n`;
}

/**
 * A client resuming a stream (GET with Last-Event-ID) on a replica that does not run the call:
 * the stored events after the last one it saw, then the call's new events as any replica stores
 * them, until its result. While the replica running the call holds its lease, this one relays;
 * once the lease lapses (that replica stopped), this one takes the call over.
 */
export async function relayResumed(
  res: ServerResponse,
  lastEventId: string,
  deps: ResumeDeps,
): Promise<void> {
  let stream: string | undefined;
  const early: MessageEvent[] = [];
  const sent = new Set<string>();
  let maxProgress: number | undefined;
  let finished = false;
  let closed = false;
  let onDone!: () => void;
  const done = new Promise<void>((resolve) => {
    onDone = resolve;
  });

  const write = (event: MessageEvent) => {
    if (finished || sent.has(event.id) || event.stream !== stream) return;
    sent.add(event.id);
    const progress = progressOf(event.message);
    if (progress !== undefined) maxProgress = Math.max(maxProgress ?? 0, progress);
    res.write(sseEvent(event));
    if (isJSONRPCResultResponse(event.message) || isJSONRPCErrorResponse(event.message)) {
      finished = true;
      res.end();
      onDone();
    }
  };
  // Following starts before the stored events are read, so nothing stored in between is missed.
  const unfollow = await deps.events.follow((event) =>
    stream === undefined ? early.push(event) : write(event),
  );
  const timers: NodeJS.Timeout[] = [];
  const stop = () => {
    closed = true;
    for (const timer of timers) clearInterval(timer);
    unfollow().catch(() => {});
    onDone();
  };
  res.once('close', stop);
  try {
    const found = await deps.events.after(lastEventId);
    if (!found) {
      refuse(
        res,
        400,
        'bad_request',
        `Event ${lastEventId} is unknown or too old to replay; call the tool again.`,
      );
      return;
    }
    stream = found.stream;
    // What the client already saw counts for the progress a continuation must stay above.
    for (const event of found.seen) maxProgress = Math.max(maxProgress ?? 0, progressOf(event.message) ?? 0);
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': deps.session });
    res.write(`retry: ${deps.retryMs}\n\n`);
    for (const event of [...found.events, ...early]) write(event);
    if (finished) return;
    timers.push(setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS).unref());
    await watch(found.stream);
    await done;
  } finally {
    if (!closed && !finished && !res.writableEnded) res.end();
    stop();
  }

  /** Until the call's result: claims its lease whenever it lapses, and then runs it here. */
  async function watch(streamId: string): Promise<void> {
    const record = await deps.calls.byStream(deps.session, streamId);
    if (!record) {
      // No call to wait for (it ended without its result reaching the store, or never recorded):
      // the stream ends and the client asks again. The standalone stream stays open.
      if (streamId !== STANDALONE_STREAM)
        timers.push(setTimeout(() => (finished || closed ? undefined : res.end()), deps.leaseMs * 2));
      return;
    }
    const attempt = async () => {
      if (finished || closed) return;
      if (!(await deps.calls.claim(record).catch(() => false))) return;
      for (const timer of timers) clearInterval(timer);
      timers.length = 0;
      timers.push(setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS).unref());
      await deps.takeOver(record, maxProgress).catch((error: unknown) => {
        deps.log.warning(`could not continue a call of a stopped replica: ${String(error)}`);
      });
    };
    timers.push(setInterval(() => void attempt(), Math.max(100, deps.leaseMs / 3)));
    await attempt();
  }
}

function progressOf(message: JSONRPCMessage): number | undefined {
  if (!('method' in message) || message.method !== 'notifications/progress') return undefined;
  const progress = message.params?.progress;
  return typeof progress === 'number' ? progress : undefined;
}
