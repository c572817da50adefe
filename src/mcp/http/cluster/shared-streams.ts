import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  JSONRPCMessage,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Logger } from '../../../log.js';
import type { Store } from '../../../store/store.js';
import { header } from '../auth/headers.js';
import { announceAnswers, isAnswers } from './answers.js';
import type { CallTracker } from './calls.js';
import type { SessionDirectory } from './directory.js';
import type { SharedEventStore } from './event-store-shared.js';
import { RECONNECT_MS, relayResumed, relayStandalone } from './resume.js';
import { takeOver } from './takeover.js';

/** With a shared store: where sessions, their events and their calls live for every replica. */
export interface SharedSessions {
  store: Store;
  directory: SessionDirectory;
  calls: CallTracker;
  leaseMs: number;
  log: Logger;
}

/** What a replica keeps of a session it serves, with a shared store. */
export interface SharedSessionState {
  events: SharedEventStore;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Hands a message straight to the session's server here. */
  deliver(message: JSONRPCMessage): void;
  /** Listening streams this replica holds for the session (closed with it). */
  listening: Set<ServerResponse>;
}

export interface SharedRequest {
  shared: SharedSessions;
  session: string;
  state: SharedSessionState;
  /** A server for the session's tenant, with this request's credentials (to continue a call). */
  server(): Server;
}

/**
 * The requests of a 2025 session that a replica serves from the shared store rather than its own
 * transport: a client's answers to server requests (announced to every replica), a resumed stream
 * whose call runs elsewhere or ran on a replica that stopped (relayed, or taken over), and the
 * listening stream (every replica's server requests reach it). False: the transport serves it.
 */
export async function serveShared(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  ctx: SharedRequest,
) {
  const { shared, session, state } = ctx;
  if (req.method === 'POST' && isAnswers(body)) {
    await announceAnswers(shared.store, session, body);
    res.writeHead(202).end();
    return true;
  }
  if (req.method !== 'GET') return false;
  const lastEventId = header(req, 'last-event-id');
  if (!lastEventId) {
    state.listening.add(res);
    res.once('close', () => state.listening.delete(res));
    await relayStandalone(res, { session, events: state.events, retryMs: RECONNECT_MS });
    return true;
  }
  // A call running here resumes through its own transport, which still holds it.
  const found = await state.events.after(lastEventId);
  if (!found || shared.calls.runsHere(session, found.stream)) return false;
  await relayResumed(res, lastEventId, {
    session,
    events: state.events,
    calls: shared.calls,
    leaseMs: shared.leaseMs,
    retryMs: RECONNECT_MS,
    log: shared.log,
    takeOver: async (record, lastProgress) => {
      const stored = await shared.directory.find(session);
      if (!stored) return;
      await takeOver(record, stored.init, lastProgress, {
        server: ctx.server(),
        events: state.events,
        calls: shared.calls,
        log: shared.log,
      });
    },
  });
  return true;
}
