import type { IncomingMessage } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  classifyInboundRequest,
  createMcpHandler,
  isInitializeRequest,
  type Server,
} from '@modelcontextprotocol/server';
import type { Toolset } from '../../../config.js';
import type { Credential } from '../../../credentials.js';
import { fingerprint } from '../../../tenant.js';
import { headerMismatch } from '../../standard-headers.js';
import type { HttpAuth } from '../auth/bearer.js';
import { header } from '../auth/headers.js';
import { refuse } from '../auth/refuse.js';
import type { Sessions } from '../sessions/handler.js';
import type { RemoteServerScope } from '../sessions/servers.js';
import type { PendingRequest, Step } from './chain.js';
import { MAX_BODY_BYTES } from './request.js';

export interface RouteDeps {
  auth: HttpAuth;
  sessions: Sessions;
  /** The server of one 2026-07-28 request (or of one request with `--stateless`). */
  serverFor(scope: RemoteServerScope): Server;
  /** No sessions for either era. */
  stateless: boolean;
}

/** What the per-request factory of the SDK's entry learns of the caller. */
interface Caller {
  credentials: readonly Credential[];
  toolsets?: Toolset[];
}

/**
 * The last step: who serves the request. A request naming a 2025 session goes to it; a 2025
 * initialize opens one; a 2026-07-28 request (per-request `_meta` envelope) goes to the SDK's
 * entry, a fresh server per request; with `--stateless`, 2025 requests get the same idiom.
 */
export function routeStep(deps: RouteDeps): Step {
  const { auth, sessions, stateless } = deps;
  // The caller rides in authInfo, the SDK's pass-through from the HTTP layer to the factory.
  const factory = ({ authInfo }: { authInfo?: AuthInfo }) =>
    deps.serverFor(authInfo?.extra?.caller as Caller);
  const modern = toNodeHandler(
    createMcpHandler(factory, { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES }),
  );
  const anyEra = toNodeHandler(
    createMcpHandler(factory, { legacy: 'stateless', maxRequestBodySize: MAX_BODY_BYTES }),
  );

  const route = async (r: PendingRequest): Promise<void> => {
    const { req, res, body } = r;
    const credentials = r.credentials!;
    const sessionId = stateless ? undefined : header(req, 'mcp-session-id');
    const era2025 = Boolean(sessionId) || req.method !== 'POST' || isLegacy(req, body);
    // The SDK checks these headers on 2026-07-28 requests only; the 2025 path is ours to check.
    const mismatch = era2025 ? headerMismatch(req, body) : undefined;
    if (mismatch) {
      return refuse(
        res,
        400,
        'header_mismatch',
        `Bad Request: the request headers and body disagree: ${mismatch}`,
      );
    }
    // No budget step: each paid call reserves against its key's ledger atomically when it runs.
    if (sessionId) return sessions.continue(req, res, sessionId, credentials, body);
    if (era2025 && !stateless && req.method === 'GET') {
      // The transport rules: a GET the server does not answer with a stream is 405 (a client then
      // goes on without a listening stream); one is offered only within a session.
      return refuse(
        res,
        405,
        'method_not_allowed',
        'Method not allowed: a listening stream (GET) needs the Mcp-Session-Id of an open session.',
        { allow: 'GET, POST, DELETE' },
      );
    }
    if (era2025 && !stateless && (req.method !== 'POST' || !isInitializeRequest(body))) {
      return refuse(
        res,
        400,
        'bad_request',
        'Bad request: send initialize first, or the Mcp-Session-Id header.',
      );
    }
    const vouched = await auth.vouch(req, res, credentials[0]);
    if (!vouched.ok) return;
    const caller: Caller = { credentials, toolsets: r.toolsets };
    if (stateless) return anyEra(withCaller(req, caller), res, body);
    if (!era2025) return modern(withCaller(req, caller), res, body);
    return sessions.open(req, res, credentials, vouched.checked, body, r.toolsets);
  };
  return (r) => route(r).then(() => true);
}

/**
 * The SDK's era classification (what its `isLegacyRequest` decides) on the request as it is: that
 * predicate wants a web Request, and building one per call (every header copied, the body
 * serialised again) only to read three headers was measurable per 2026-07-28 call (bench/NOTES.md).
 */
function isLegacy(req: IncomingMessage, body: unknown): boolean {
  // No JSON body: the 2025 path answers it (the SDK's predicate says legacy too).
  if (body === undefined) return true;
  const outcome = classifyInboundRequest({
    httpMethod: req.method ?? 'GET',
    protocolVersionHeader: joined(req, 'mcp-protocol-version'),
    mcpMethodHeader: joined(req, 'mcp-method'),
    mcpNameHeader: joined(req, 'mcp-name'),
    body,
  });
  return outcome.kind === 'legacy';
}

/** A header as a web Request gives it: repeated values joined with a comma. */
function joined(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function withCaller(req: IncomingMessage, caller: Caller) {
  const authInfo: AuthInfo = {
    token: '',
    clientId: fingerprint(caller.credentials[0]!).slice(0, 16),
    scopes: [],
    extra: { caller },
  };
  return Object.assign(req, { auth: authInfo });
}
