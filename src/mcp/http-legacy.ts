import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Toolset } from '../config.js';
import type { Credential } from '../credentials.js';
import type { Logger } from '../log.js';
import { type Store, storeKey } from '../store/store.js';
import { SessionEventStore } from './event-store.js';
import type { HttpAuth } from './http-auth.js';
import type { CallTracker } from './http-calls.js';
import { InitParams, type SessionDirectory, type SessionRecord } from './http-directory.js';
import { DEFAULT_SHARED_EVENT_BOUNDS, SharedEventStore } from './http-events.js';
import { header, MAX_BODY_BYTES, rpcError } from './http-request.js';
import { relayResumed, relayStandalone } from './http-resume.js';
import { type Session, type SessionLimits, SessionRegistry } from './http-sessions.js';
import { takeOver } from './http-takeover.js';
import { fingerprint, fingerprintAll } from './request-credentials.js';

/** How long a client may wait before reconnecting a dropped stream (sent as the SSE `retry` field). */
const RECONNECT_MS = 1_000;
/** Where a client's answers to server requests are announced to every replica. */
const CLIENT_ANSWERS = storeKey('client-answers');
/** Requests a re-created session's transport is handed internally (the URL is never dialled). */
const INTERNAL_URL = 'http://localhost/mcp';

/** Builds the server of a session, told when the platform refuses the session's key. */
export type SessionServerFactory = (
  credentials: readonly Credential[],
  session: Session,
  id: string,
) => Server;

/** With a shared store: where sessions, their events and their calls live for every replica. */
export interface SharedSessions {
  store: Store;
  directory: SessionDirectory;
  calls: CallTracker;
  leaseMs: number;
  log: Logger;
}

/**
 * 2025-era clients keep what they had: sessions bound to the credentials that opened them, the
 * resumable event store with Last-Event-ID, server-initiated requests (elicitation, roots) on the
 * session. With a shared store a session opened on one replica is served by any other: the first
 * replica to see it re-creates its transport from the stored record by replaying the client's
 * initialize to a fresh server, and a dropped stream resumes on whichever replica the client
 * reaches (relayed while the call runs elsewhere, taken over when that replica stopped).
 */
export class LegacySessions {
  readonly registry: SessionRegistry;
  private readonly reviving = new Map<string, Promise<Session | undefined>>();
  private readonly events = new WeakMap<Session, SharedEventStore>();
  /** How a message reaches each session's server on this replica (answers the client sent elsewhere). */
  private readonly deliver = new WeakMap<Session, (message: JSONRPCMessage) => void>();
  private readonly unsubscribe: (() => Promise<void>)[] = [];
  /** Listening streams this replica holds, per session, closed with it. */
  private readonly listening = new WeakMap<Session, Set<ServerResponse>>();

  constructor(
    limits: SessionLimits,
    private readonly auth: HttpAuth,
    private readonly serverFor: SessionServerFactory,
    private readonly shared?: SharedSessions,
  ) {
    this.registry = new SessionRegistry(limits);
  }

  /**
   * Listens to what other replicas change (a session ended or its key refused there) and to the
   * answers clients send them for this replica's requests (an elicitation answered through another).
   */
  async start(): Promise<void> {
    const shared = this.shared;
    if (!shared) return;
    this.unsubscribe.push(
      await shared.directory.changes(({ id, change }) => {
        const session = this.registry.get(id);
        if (!session) return;
        if (change === 'refused') session.refused = true;
        else this.registry.close(session);
      }),
      await shared.store.subscribe(CLIENT_ANSWERS, (text) => {
        const answer = parseAnswer(text);
        const session = answer && this.registry.get(answer.session);
        const deliver = session && this.deliver.get(session);
        if (deliver) for (const message of answer.messages) deliver(message);
      }),
    );
  }

  /** A request on an existing session: only the credentials that opened it reach it, and a refused key ends it. */
  async continue(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    credentials: readonly Credential[],
    body: unknown,
  ) {
    const owner = fingerprintAll(credentials);
    const session = this.registry.find(id, owner) ?? (await this.revive(id, owner, credentials));
    if (!session?.handle) return rpcError(res, 404, -32001, 'Session not found; initialize a new session.');
    if (session.refused) {
      // The key was refused during this session; the client signs in again and opens a new one.
      this.registry.close(session);
      await this.shared?.directory.end(id);
      return this.auth.invalidToken(
        req,
        res,
        'The platform refused this key (401). Sign in again, then open a new session.',
      );
    }
    this.shared?.directory.touch({
      id,
      key: session.key,
      address: session.address,
      checked: session.checked,
    });
    this.registry.track(session, res);
    if (this.shared && req.method === 'POST' && isAnswers(body)) {
      // The client answers a request of this session's server (an elicitation, a roots list), which
      // may run on another replica: every replica hears it, the one that asked takes it.
      const messages = Array.isArray(body) ? body : [body];
      await this.shared.store.publish(CLIENT_ANSWERS, JSON.stringify({ session: id, messages }));
      res.writeHead(202).end();
      return;
    }
    const lastEventId = req.method === 'GET' ? header(req, 'last-event-id') : undefined;
    if (this.shared && lastEventId && (await this.resumesElsewhere(session, lastEventId)))
      return this.relay(res, session, credentials, lastEventId);
    if (this.shared && req.method === 'GET' && !lastEventId) return this.listen(res, session);
    return this.run(id, res, () => session.handle!(req, res, body));
  }

  /** An initialize: a slot is taken under every bound before the session's server is built. */
  async open(
    req: IncomingMessage,
    res: ServerResponse,
    credentials: readonly Credential[],
    checked: boolean,
    body: unknown,
    toolsets: Toolset[] | undefined,
  ) {
    const address = req.socket.remoteAddress ?? 'unknown';
    const key = fingerprint(credentials[0]!);
    const admission = this.registry.admit(fingerprintAll(credentials), address, checked, key);
    const refusal = admission.ok ? await this.shared?.directory.admit({ key, address, checked }) : admission;
    if (refusal && !refusal.ok) {
      if (admission.ok) this.registry.remove(admission.session);
      if (refusal.status === 503) res.setHeader('retry-after', '30');
      return rpcError(res, refusal.status, -32000, refusal.message);
    }
    if (!admission.ok) return;
    const session = admission.session;
    session.toolsets = toolsets;
    const id = randomUUID();
    const params = InitParams.safeParse(isRecord(body) ? body.params : undefined);
    await this.build(session, credentials, id, async () => {
      this.registry.opened(session, id);
      // Stored before the client reads the session id, so its next request may reach any replica.
      if (this.shared && params.success) {
        const record: SessionRecord = {
          id,
          owner: session.owner,
          key,
          address,
          checked,
          ...(toolsets ? { toolsets } : {}),
          init: params.data,
          createdAt: Date.now(),
        };
        await this.shared.directory.opened(record);
      }
    });
    this.registry.track(session, res);
    return this.run(id, res, () => session.handle!(req, res, body));
  }

  /** The platform refused the session's key: its next request, on any replica, is told to sign in again. */
  refused(session: Session): void {
    session.refused = true;
    if (session.id && this.shared)
      this.shared.directory.refused(session.id).catch((error: unknown) => {
        this.shared?.log.warning(`could not share a refused key: ${String(error)}`);
      });
  }

  async close(): Promise<void> {
    await Promise.all(this.unsubscribe.map((stop) => stop()));
    return this.registry.closeAll();
  }

  private run<T>(id: string, res: ServerResponse, handle: () => T): T {
    return this.shared ? this.shared.calls.within(id, res, handle) : handle();
  }

  /** The transport and server of a session, under the given id. */
  private async build(
    session: Session,
    credentials: readonly Credential[],
    id: string,
    onInitialized: () => Promise<void>,
  ): Promise<SharedEventStore | undefined> {
    const shared = this.shared;
    const events = shared
      ? new SharedEventStore(
          shared.store,
          id,
          { ...DEFAULT_SHARED_EVENT_BOUNDS, ttlMs: this.registry.limits.idleMs },
          shared.calls.hooksFor(id),
        )
      : undefined;
    const server = this.serverFor(credentials, session, id);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: onInitialized,
      // DELETE from the client: the session is over on every replica.
      onsessionclosed: async () => {
        await shared?.directory.end(id);
      },
      // Events are kept so a dropped stream can be resumed with Last-Event-ID.
      eventStore: events ?? new SessionEventStore(),
      retryInterval: RECONNECT_MS,
    });
    session.transport = transport;
    session.server = server;
    transport.onclose = () => {
      this.registry.remove(session);
      for (const res of this.listening.get(session) ?? []) res.end();
      shared?.calls.sessionClosed(id);
      server.close().catch(() => {});
    };
    await server.connect(transport);
    if (shared) {
      const deliver = transport.onmessage;
      if (deliver) {
        transport.onmessage = shared.calls.track(deliver.bind(transport));
        this.deliver.set(session, (message) => deliver.call(transport, message));
      }
      this.events.set(session, events!);
    }
    const handle = toNodeHandler(
      { fetch: (request, options) => transport.handleRequest(request, options) },
      { maxRequestBodySize: MAX_BODY_BYTES },
    );
    session.handle = (req, res, body) => handle(req, headersAtOnce(res), body);
    return events;
  }

  /** A session another replica opened, re-created here from its record (once, however many ask at once). */
  private revive(
    id: string,
    owner: string,
    credentials: readonly Credential[],
  ): Promise<Session | undefined> {
    if (!this.shared) return Promise.resolve(undefined);
    let pending = this.reviving.get(id);
    if (!pending) {
      pending = this.recreate(id, credentials).finally(() => this.reviving.delete(id));
      this.reviving.set(id, pending);
    }
    // Whoever asks, only the credentials that opened it reach it.
    return pending.then((session) => (session?.owner === owner ? session : undefined));
  }

  private async recreate(id: string, credentials: readonly Credential[]): Promise<Session | undefined> {
    const record = await this.shared!.directory.find(id);
    if (!record || record.owner !== fingerprintAll(credentials)) return undefined;
    const admission = this.registry.admit(record.owner, record.address, record.checked, record.key);
    if (!admission.ok) return undefined;
    const session = admission.session;
    session.toolsets = record.toolsets;
    session.refused = record.refused ?? false;
    const events = await this.build(session, credentials, id, async () => {
      this.registry.opened(session, id);
    });
    try {
      events!.muted = true;
      await this.replayHandshake(session, id, record.init);
    } catch (error) {
      this.registry.close(session);
      this.shared!.log.warning(`could not re-create session from the store: ${String(error)}`);
      return undefined;
    } finally {
      events!.muted = false;
    }
    return session;
  }

  /** The client's initialize and initialized, replayed to the session's new server; nothing is sent to the client. */
  private async replayHandshake(session: Session, id: string, init: InitParams): Promise<void> {
    const transport = session.transport as WebStandardStreamableHTTPServerTransport;
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

  /** The listening stream: every replica's messages outside a call reach it (ended with the session here). */
  private listen(res: ServerResponse, session: Session): Promise<void> {
    const streams = this.listening.get(session) ?? new Set<ServerResponse>();
    this.listening.set(session, streams);
    streams.add(res);
    res.once('close', () => streams.delete(res));
    return relayStandalone(res, {
      session: session.id!,
      events: this.events.get(session)!,
      retryMs: RECONNECT_MS,
    });
  }

  /** The stream of this event belongs to a call this replica does not run. */
  private async resumesElsewhere(session: Session, lastEventId: string): Promise<boolean> {
    const found = await this.events.get(session)?.after(lastEventId);
    return found !== undefined && !this.shared!.calls.runsHere(session.id!, found.stream);
  }

  private relay(
    res: ServerResponse,
    session: Session,
    credentials: readonly Credential[],
    lastEventId: string,
  ): Promise<void> {
    const shared = this.shared!;
    const events = this.events.get(session)!;
    return relayResumed(res, lastEventId, {
      session: session.id!,
      events,
      calls: shared.calls,
      leaseMs: shared.leaseMs,
      retryMs: RECONNECT_MS,
      log: shared.log,
      takeOver: async (record, lastProgress) => {
        const stored = await shared.directory.find(session.id!);
        if (!stored) return;
        await takeOver(record, stored.init, lastProgress, {
          server: this.serverFor(credentials, session, session.id!),
          events,
          calls: shared.calls,
          log: shared.log,
        });
      },
    });
  }
}

/** A body of JSON-RPC responses only: what a client sends to answer the server's requests. */
function isAnswers(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return (
    messages.length > 0 &&
    messages.every(
      (message) =>
        isRecord(message) &&
        'id' in message &&
        ('result' in message || 'error' in message) &&
        !('method' in message),
    )
  );
}

function parseAnswer(text: string): { session: string; messages: JSONRPCMessage[] } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || typeof value.session !== 'string' || !Array.isArray(value.messages))
      return undefined;
    return {
      session: value.session,
      messages: value.messages.map((message) => parseJSONRPCMessage(message)),
    };
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The response with its headers sent as soon as they are set: a stream that has nothing to say
 * yet (a listening GET) still tells the client it is open.
 */
function headersAtOnce(res: ServerResponse) {
  return {
    writeHead(status: number, headers?: Record<string, string>) {
      res.writeHead(status, headers);
      res.flushHeaders();
      return res;
    },
    write: (chunk: string | Uint8Array) => res.write(chunk),
    end: (chunk?: string | Uint8Array) => (chunk === undefined ? res.end() : res.end(chunk)),
    on: (event: string, listener: (...args: unknown[]) => void) => res.on(event, listener),
    get destroyed() {
      return res.destroyed;
    },
  };
}
