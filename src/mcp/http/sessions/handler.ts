import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Toolset } from '../../../config.js';
import type { Credential } from '../../../credentials.js';
import { isRecord } from '../../../lang.js';
import type { Logger } from '../../../log.js';
import type { Store } from '../../../store/store.js';
import { fingerprint, fingerprintAll } from '../../../tenant.js';
import type { LongCall } from '../../define-tool.js';
import type { HttpAuth } from '../auth/bearer.js';
import { refuse } from '../auth/refuse.js';
import type { SessionLimits } from '../auth/session-bounds.js';
import { onAnswers } from '../cluster/answers.js';
import { CallTracker } from '../cluster/calls.js';
import { InitParams, SessionDirectory, type SessionRecord } from '../cluster/directory.js';
import { DEFAULT_SHARED_EVENT_BOUNDS, SharedEventStore } from '../cluster/event-store-shared.js';
import { type SharedSessionState, type SharedSessions, serveShared } from '../cluster/shared-streams.js';
import { SessionEventStore } from './event-store-memory.js';
import { outlivesConnection } from './priming.js';
import { type Session, SessionRegistry } from './registry.js';
import type { RemoteServerFactory } from './servers.js';
import { openSessionTransport, replayHandshake } from './transport.js';

/** A store the replicas share, and what this replica needs to share its sessions through it. */
interface ClusterOptions {
  store: Store;
  replica: string;
  /** A call's lease lasts this long without a heartbeat. */
  leaseMs: number;
  log: Logger;
}

export interface SessionDeps {
  limits: SessionLimits;
  auth: HttpAuth;
  /** Builds the server of one caller; the session adds its own id, jobs and refusal to the scope. */
  serverFor: RemoteServerFactory;
  /** The tools whose calls can take long, and how (they report progress, or wait on a job). */
  longTools: ReadonlyMap<string, LongCall>;
  /** With a store the replicas share. */
  cluster?: ClusterOptions;
}

/**
 * 2025-era clients keep what they had: sessions bound to the credentials that opened them, the
 * resumable event store with Last-Event-ID, server-initiated requests (elicitation, roots) on the
 * session. With a shared store a session opened on one replica is served by any other: the first
 * replica to see it re-creates its transport from the stored record by replaying the client's
 * initialize to a fresh server, and a dropped stream resumes on whichever replica the client
 * reaches (relayed while the call runs elsewhere, taken over when that replica stopped).
 */
export class Sessions {
  readonly registry: SessionRegistry;
  /** With a shared store: the sessions, their events and their calls are every replica's. */
  private readonly shared?: SharedSessions;
  private readonly reviving = new Map<string, Promise<Session | undefined>>();
  /** With a shared store, what this replica keeps of each session it serves. */
  private readonly states = new WeakMap<Session, SharedSessionState>();
  private readonly unsubscribe: (() => Promise<void>)[] = [];

  private readonly auth: HttpAuth;
  private readonly serverFor: RemoteServerFactory;
  private readonly longTools: ReadonlyMap<string, LongCall>;

  constructor({ limits, auth, serverFor, longTools, cluster }: SessionDeps) {
    this.auth = auth;
    this.serverFor = serverFor;
    this.longTools = longTools;
    this.registry = new SessionRegistry(limits);
    if (cluster) {
      const { store, replica, leaseMs, log } = cluster;
      this.shared = {
        store,
        directory: new SessionDirectory(store, limits, log),
        calls: new CallTracker({ store, replica, leaseMs, ttlMs: limits.idleMs, log }),
        leaseMs,
        log,
      };
    }
  }

  /** The calls of this replica's sessions, when they are shared with other replicas. */
  get calls(): CallTracker | undefined {
    return this.shared?.calls;
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
      await onAnswers(shared.store, (id, messages) => {
        const session = this.registry.get(id);
        const state = session && this.states.get(session);
        if (state) for (const message of messages) state.deliver(message);
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
    if (!session?.handle)
      return refuse(res, 404, 'session_not_found', 'Session not found; initialize a new session.');
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
    const state = this.states.get(session);
    if (this.shared && state) {
      const server = () => this.serverOf(credentials, session, id);
      if (await serveShared(req, res, body, { shared: this.shared, session: id, state, server })) return;
    }
    return this.run(id, res, () => session.handle!(req, res, body, outlivesConnection(body, this.longTools)));
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
    const address = this.auth.address(req);
    const key = fingerprint(credentials[0]!);
    const admission = this.registry.admit(fingerprintAll(credentials), address, checked, key);
    const refusal = admission.ok ? await this.shared?.directory.admit({ key, address, checked }) : admission;
    if (refusal && !refusal.ok) {
      if (admission.ok) this.registry.remove(admission.session);
      const retry: Record<string, string> = refusal.status === 503 ? { 'retry-after': '30' } : {};
      return refuse(res, refusal.status, 'session_limit', refusal.message, retry);
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
    return this.run(id, res, () => session.handle!(req, res, body, outlivesConnection(body, this.longTools)));
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

  /** The server of a session: its calls' jobs are linked to them (for a takeover), and a refused key ends it. */
  private serverOf(credentials: readonly Credential[], session: Session, id: string) {
    const calls = this.shared?.calls;
    return this.serverFor({
      credentials,
      toolsets: session.toolsets,
      session: {
        id,
        jobRecorded: calls ? (request, patch) => calls.jobRecorded(id, request, patch) : undefined,
      },
      onUpstreamUnauthorized: () => this.refused(session),
    });
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
    const server = this.serverOf(credentials, session, id);
    const open = await openSessionTransport({
      id,
      server,
      events: events ?? new SessionEventStore(),
      onInitialized,
      // DELETE from the client: the session is over on every replica.
      onDeleted: async () => {
        await shared?.directory.end(id);
      },
      onClosed: () => {
        this.registry.remove(session);
        for (const res of this.states.get(session)?.listening ?? []) res.end();
        shared?.calls.sessionClosed(id);
        server.close().catch(() => {});
      },
      wrap: shared ? (deliver) => shared.calls.track(deliver) : undefined,
    });
    session.transport = open.transport;
    session.server = server;
    session.handle = open.handle;
    if (shared && events) {
      this.states.set(session, {
        events,
        transport: open.transport,
        deliver: open.deliver,
        listening: new Set(),
      });
    }
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
      await replayHandshake(this.states.get(session)!.transport, id, record.init);
    } catch (error) {
      this.registry.close(session);
      this.shared!.log.warning(`could not re-create session from the store: ${String(error)}`);
      return undefined;
    } finally {
      events!.muted = false;
    }
    return session;
  }
}
