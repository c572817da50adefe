import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import {
  type EventStore,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { InitParams } from '../cluster/directory.js';
import { RECONNECT_MS } from '../cluster/resume.js';

/** Requests a re-created session's transport is handed internally (the URL is never dialled). */
const INTERNAL_URL = 'http://localhost/mcp';

type Deliver = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

export interface SessionTransportOptions {
  id: string;
  server: Server;
  /** With `delivered`, told when a request's reply went out whole (its events need not wait). */
  events: EventStore & { delivered?(requestId: RequestId): void };
  /** The session answered initialize (before the client reads its id). */
  onInitialized(): Promise<void>;
  /** The client deleted the session. */
  onDeleted(): Promise<void>;
  onClosed(): void;
  /** Wraps how each message reaches the server (call tracking, with a shared store). */
  wrap?(deliver: Deliver): Deliver;
}

export interface OpenTransport {
  transport: WebStandardStreamableHTTPServerTransport;
  /**
   * Hands one HTTP request of the session to the transport; `resumable`: its stream starts with the
   * priming event (outlivesConnection in priming.ts), else the reply comes without it.
   */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, resumable: boolean): Promise<void>;
  /** Hands a message straight to the server (an answer the client sent through another replica). */
  deliver(message: JSONRPCMessage): void;
}

/**
 * A 2025 session's transport under a given id, its server connected: the SDK's web-standard
 * transport behind the Node adapter, so a replica can also feed it requests of its own (the
 * replayed handshake of a session re-created from the store).
 */
export async function openSessionTransport(options: SessionTransportOptions): Promise<OpenTransport> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => options.id,
    onsessioninitialized: options.onInitialized,
    onsessionclosed: options.onDeleted,
    // Events are kept so a dropped stream can be resumed with Last-Event-ID.
    eventStore: options.events,
    retryInterval: RECONNECT_MS,
  });
  transport.onclose = options.onClosed;
  const primed = primeOnly(transport);
  await options.server.connect(transport);
  const original = transport.onmessage?.bind(transport);
  if (!original) throw new Error('the server did not attach to the transport');
  if (options.wrap) transport.onmessage = options.wrap(original);
  // The listener the SDK's own Node transport uses: a lazy Request over the Node request (no
  // copy of the headers, no re-serialised body) and the response written as it comes, its headers
  // with the first event, or at once for a stream with nothing to say yet (a listening GET).
  // toNodeHandler built a full Request (headers copied, body re-serialised) for every call.
  const bodies = new WeakMap<object, unknown>();
  const listener = getRequestListener(
    (request, { incoming }) => transport.handleRequest(request, { parsedBody: bodies.get(incoming) }),
    { overrideGlobalObjects: false },
  );
  return {
    transport,
    handle: async (req, res, body, resumable) => {
      // A new listening stream takes over from the one before (the SDK answers 409 while one is
      // open): a client that reconnects before the server noticed its old connection drop, or
      // one that opened two at once (the AI SDK after initialize), keeps listening.
      if (req.method === 'GET' && req.headers['last-event-id'] === undefined)
        transport.closeStandaloneSSEStream();
      // The body was read (and capped) by the endpoint; the transport gets it parsed.
      if (body !== undefined) bodies.set(req, body);
      const delivered = options.events.delivered;
      if (delivered || resumable) {
        const ids = requestIds(body);
        if (resumable && ids.length) {
          for (const id of ids) primed.add(id);
          // A request refused before its stream opened is never primed: forget it all the same.
          res.once('close', () => {
            for (const id of ids) primed.delete(id);
          });
        }
        if (delivered && ids.length)
          res.once('finish', () => {
            for (const id of ids) delivered.call(options.events, id);
          });
      }
      // What the response says in this turn of the event loop (headers, the priming event, a
      // quick reply) goes out in one write, not one per piece.
      // The socket is corked, not the response: on Node 22 a corked response that ended in the
      // same turn (every initialize's reply) went out with headers and no body.
      const socket = res.socket;
      socket?.cork();
      setImmediate(() => socket?.uncork());
      await listener(req, res);
    },
    deliver: (message) => original(message),
  };
}

/** What the SDK's transport keeps to itself and primeOnly reaches (test/unit/mcp/http/sessions/priming.test.ts checks they are still there). */
interface TransportInternals {
  writePrimingEvent(controller: unknown, encoder: unknown, streamId: string, version: string): Promise<void>;
  _requestToStreamMapping: Map<RequestId, string>;
}

/**
 * The SDK's transport primes every POST's stream once it has an event store; this one primes
 * only the streams of the requests put in the returned set (the set forgets each as it is primed).
 * The SDK gives no option for it, so its one priming method is wrapped.
 */
function primeOnly(transport: WebStandardStreamableHTTPServerTransport): Set<RequestId> {
  const primed = new Set<RequestId>();
  const internals = transport as unknown as TransportInternals;
  const prime = internals.writePrimingEvent.bind(transport);
  internals.writePrimingEvent = async (controller, encoder, streamId, version) => {
    if (primed.size === 0) return;
    let wanted = false;
    for (const [id, stream] of internals._requestToStreamMapping)
      if (stream === streamId && primed.delete(id)) wanted = true;
    if (wanted) await prime(controller, encoder, streamId, version);
  };
  return primed;
}

/** The client's initialize and initialized, replayed to a re-created session's server; nothing reaches the client. */
export async function replayHandshake(
  transport: WebStandardStreamableHTTPServerTransport,
  id: string,
  init: InitParams,
): Promise<void> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = await transport.handleRequest(
    new Request(INTERNAL_URL, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'orbit-revive', method: 'initialize', params: init }),
    }),
  );
  await initialize.text();
  if (!initialize.ok) throw new Error(`initialize replay answered ${initialize.status}`);
  const initialized = await transport.handleRequest(
    new Request(INTERNAL_URL, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }),
  );
  await initialized.text();
}

/** The ids of the requests in a POST body (one message or a batch). */
function requestIds(body: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null || !('method' in message)) continue;
    const { id } = message as { id?: unknown };
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  return ids;
}
