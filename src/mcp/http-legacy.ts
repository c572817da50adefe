import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { Server } from '@modelcontextprotocol/server';
import type { Toolset } from '../config.js';
import type { Credential } from '../credentials.js';
import { SessionEventStore } from './event-store.js';
import type { HttpAuth } from './http-auth.js';
import { rpcError } from './http-request.js';
import { type Session, type SessionLimits, SessionRegistry } from './http-sessions.js';
import { fingerprint, fingerprintAll } from './request-credentials.js';

/** How long a client may wait before reconnecting a dropped stream (sent as the SSE `retry` field). */
const RECONNECT_MS = 1_000;

/** Builds the server of a new session, told when the platform refuses the session's key. */
export type SessionServerFactory = (credentials: readonly Credential[], session: Session) => Server;

/**
 * 2025-era clients keep what they had: sessions bound to the key that opened them, the resumable
 * event store with Last-Event-ID, server-initiated requests (elicitation, roots) on the session.
 */
export class LegacySessions {
  readonly registry: SessionRegistry;

  constructor(
    limits: SessionLimits,
    private readonly auth: HttpAuth,
    private readonly serverFor: SessionServerFactory,
  ) {
    this.registry = new SessionRegistry(limits);
  }

  /** A request on an existing session: only the credentials that opened it reach it, and a refused key ends it. */
  async continue(req: IncomingMessage, res: ServerResponse, id: string, owner: string, body: unknown) {
    const session = this.registry.find(id, owner);
    if (!session?.transport)
      return rpcError(res, 404, -32001, 'Session not found; initialize a new session.');
    if (session.refused) {
      // The key was refused during this session; the client signs in again and opens a new one.
      this.registry.close(session);
      return this.auth.invalidToken(
        req,
        res,
        'The platform refused this key (401). Sign in again, then open a new session.',
      );
    }
    this.registry.track(session, res);
    return session.transport.handleRequest(req, res, body);
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
    const admission = this.registry.admit(
      fingerprintAll(credentials),
      req.socket.remoteAddress ?? 'unknown',
      checked,
      fingerprint(credentials[0]!),
    );
    if (!admission.ok) {
      if (admission.status === 503) res.setHeader('retry-after', '30');
      return rpcError(res, admission.status, -32000, admission.message);
    }
    const session = admission.session;
    session.toolsets = toolsets;
    const server = this.serverFor(credentials, session);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => this.registry.opened(session, id),
      // Events are kept so a dropped stream can be resumed with Last-Event-ID.
      eventStore: new SessionEventStore(),
      retryInterval: RECONNECT_MS,
    });
    session.transport = transport;
    session.server = server;
    transport.onclose = () => {
      this.registry.remove(session);
      server.close().catch(() => {});
    };
    this.registry.track(session, res);
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
  }

  close(): Promise<void> {
    return this.registry.closeAll();
  }
}
