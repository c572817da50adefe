import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import type { Toolset } from '../../../config.js';
import type { SessionLimits, SessionRefusal } from '../auth/session-bounds.js';

/** What the registry needs of a session's transport. */
interface SessionTransport {
  close(): Promise<void>;
}

export interface Session {
  /** Set once the transport has answered initialize. */
  id?: string;
  transport?: SessionTransport;
  /** Hands one HTTP request of the session to its transport. */
  handle?: (req: IncomingMessage, res: ServerResponse, body: unknown, resumable: boolean) => Promise<void>;
  server?: Server;
  /** Fingerprint of all the caller sent (key and admin credentials); bound for life, nothing else is served on it. */
  owner: string;
  /** Fingerprint of the key alone, for the per-key bound. */
  key: string;
  address: string;
  /** The platform confirmed the key before the session opened. */
  checked: boolean;
  /** The platform refused the key during this session: its next request is told to sign in again. */
  refused: boolean;
  /** The toolsets it was opened with (`?toolsets=`). */
  toolsets?: Toolset[];
  /** When its last request came or its last stream closed. */
  lastSeen: number;
  /** Responses still open (a streamed call, the standalone GET stream). */
  open: number;
}

export type Admission = { ok: true; session: Session } | SessionRefusal;

/**
 * The live sessions of the HTTP endpoint and their bounds: in total, per client address, per key,
 * and for keys the platform could not vouch for. A slot is taken when initialize arrives, before
 * any work, so a burst of initializes cannot overshoot a bound.
 */
export class SessionRegistry {
  private readonly all = new Set<Session>();
  private readonly byId = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(readonly limits: SessionLimits) {
    // Clients that vanish without DELETE would otherwise keep their session (and its events) forever.
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, limits.idleMs));
    this.sweeper.unref();
  }

  get size(): number {
    return this.all.size;
  }

  admit(owner: string, address: string, checked: boolean, key = owner): Admission {
    const sessions = [...this.all];
    if (sessions.length >= this.limits.total)
      return {
        ok: false,
        status: 503,
        message: 'The server holds as many sessions as it can; try again later.',
      };
    if (sessions.filter((s) => s.address === address).length >= this.limits.perAddress)
      return {
        ok: false,
        status: 429,
        message: `Your address already has ${this.limits.perAddress} sessions; close some (DELETE) first.`,
      };
    if (!checked && sessions.filter((s) => !s.checked).length >= this.limits.unchecked)
      return {
        ok: false,
        status: 503,
        message:
          'The platform cannot confirm keys right now, and no more unconfirmed sessions are taken; try again later.',
      };
    const mine = sessions.filter((s) => s.key === key);
    if (mine.length >= this.limits.perKey) {
      // The key's longest-idle session gives way; when all have streams open, the new one is refused.
      const idle = mine.filter((s) => s.open === 0).sort((a, b) => a.lastSeen - b.lastSeen)[0];
      if (!idle)
        return {
          ok: false,
          status: 429,
          message: `This key already has ${this.limits.perKey} sessions with open streams; close one (DELETE) before opening another.`,
        };
      this.close(idle);
    }
    const session: Session = {
      owner,
      key,
      address,
      checked,
      refused: false,
      lastSeen: Date.now(),
      open: 0,
    };
    this.all.add(session);
    return { ok: true, session };
  }

  /** The transport answered initialize: the session is reachable by its id. */
  opened(session: Session, id: string): void {
    session.id = id;
    this.byId.set(id, session);
  }

  /** The session with this id, if it belongs to this key; another key's session is indistinguishable from none. */
  find(id: string, owner: string): Session | undefined {
    const session = this.byId.get(id);
    return session?.owner === owner ? session : undefined;
  }

  /** The session with this id whoever owns it: for changes other replicas announce, never to serve a request. */
  get(id: string): Session | undefined {
    return this.byId.get(id);
  }

  /** Counts the response as open until it closes: a session with a live stream is never idle. */
  track(session: Session, res: ServerResponse): void {
    session.lastSeen = Date.now();
    session.open++;
    res.on('close', () => {
      session.open--;
      session.lastSeen = Date.now();
      // An initialize that never produced a session frees its slot.
      if (session.id === undefined) this.all.delete(session);
    });
  }

  /** Forgets the session (its transport closed). */
  remove(session: Session): void {
    this.all.delete(session);
    if (session.id !== undefined) this.byId.delete(session.id);
  }

  close(session: Session): void {
    this.remove(session);
    session.transport?.close().catch(() => {});
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const sessions = [...this.all];
    for (const session of sessions) this.remove(session);
    await Promise.all(sessions.map((session) => session.transport?.close().catch(() => {})));
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const session of this.all) {
      if (session.id !== undefined && session.open === 0 && now - session.lastSeen > this.limits.idleMs)
        this.close(session);
    }
  }
}
