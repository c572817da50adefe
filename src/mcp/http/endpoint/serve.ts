import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { SpendBudgets } from '../../../budget/per-key.js';
import type { Toolset } from '../../../config.js';
import type { Credential } from '../../../credentials.js';
import { handBackJobs } from '../../../jobs/wait.js';
import { createLogger, logsAt } from '../../../log.js';
import type { Runtime } from '../../../runtime.js';
import { fingerprint } from '../../../tenant.js';
import type { Registry } from '../../server.js';
import { headerMismatch } from '../../standard-headers.js';
import { HttpAuth } from '../auth/bearer.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { Sessions } from '../sessions/handler.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from '../sessions/registry.js';
import { createRemoteServerFactory } from '../sessions/servers.js';
import { AuditLog } from './audit.js';
import { Drain } from './drain.js';
import { describeBody, type RequestFacts, requestLogger } from './log.js';
import { answerMetadata, createProbes } from './probes.js';
import { refuse } from './refuse.js';
import {
  header,
  hostAllowed,
  MAX_BODY_BYTES,
  originAllowed,
  parseToolsets,
  readJson,
  requestExtras,
  TOO_LARGE,
} from './request.js';
import { answerServerCard } from './server-card.js';

export interface HttpOptions {
  port: number;
  host: string;
  /** No sessions for either era: every request gets a fresh server (horizontal scaling, serverless). */
  stateless: boolean;
  /** Extra Host header values to accept (for a reverse proxy); loopback names are always accepted. */
  allowedHosts?: string[];
  path?: string;
  /** Bounds on 2025 sessions (per key, per address, in total) and their idle time. */
  limits?: Partial<SessionLimits>;
  /** Proxies in front whose X-Forwarded-For is believed (`--trust-proxy`); default 0, none. */
  trustProxy?: number;
}

export interface RunningHttp {
  url: string;
  port: number;
  /**
   * SIGTERM: takes no new request (503), lets running calls finish until the drain deadline, then
   * hands their jobs over (shared store) or back; resolves when it is safe to close.
   */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** What the per-request factory of the 2026 entry learns of the caller. */
interface Caller {
  /** The API key first, then any management token or session sent for the admin tools. */
  credentials: readonly Credential[];
  toolsets?: Toolset[];
}

/**
 * Streamable HTTP for both protocol eras on one endpoint. 2026-07-28 requests (per-request
 * `_meta` envelope) are served statelessly by the SDK's entry, a fresh server per request; 2025
 * clients keep their sessions (or get the stateless idiom with `--stateless`). Every client is a
 * stranger: Host/Origin are checked, the key is checked with the platform before work starts, and
 * a caller's files and jobs are its key's alone.
 */
export async function serveHttp(
  runtime: Runtime,
  registry: Registry,
  options: HttpOptions,
): Promise<RunningHttp> {
  const mcpPath = options.path ?? '/mcp';
  const { config, store } = runtime;
  const log = createLogger(config.logLevel);
  const limits = { ...DEFAULT_SESSION_LIMITS, ...options.limits };
  const auth = new HttpAuth(runtime.target, mcpPath, runtime.client, log, store, options.trustProxy);
  // What a key may spend is counted per key: every session, both eras, every replica.
  const budgets = new SpendBudgets(config.maxSpendUsd, store, config.budgetWindow);
  // Tool calls over HTTP are audited (one JSON line each); the request-rate limits are counted in the store.
  const audit = AuditLog.open(config.auditLog, runtime.replicaId);
  const limiter = new RateLimiter(
    config.rateLimit,
    store,
    log,
    audit && ((refusal) => audit.refused(refusal)),
  );
  const drain = new Drain();
  const toolNames = new Set(registry.tools.entries.map((entry) => entry.name));
  const logRequest = logsAt(config.logLevel, 'info')
    ? requestLogger({ replica: runtime.replicaId, tools: toolNames })
    : undefined;
  let port = options.port;

  const serverFor = createRemoteServerFactory({ runtime, registry, auth, budgets, limiter, audit });

  // The caller rides in authInfo, the SDK's pass-through from the HTTP layer to the factory.
  const callerOf = (info: AuthInfo | undefined): Caller => info?.extra?.caller as Caller;
  const factory = ({ authInfo }: { authInfo?: AuthInfo }) => {
    const caller = callerOf(authInfo);
    return serverFor(caller);
  };
  const modern = toNodeHandler(
    createMcpHandler(factory, { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES }),
  );
  const stateless = toNodeHandler(
    createMcpHandler(factory, { legacy: 'stateless', maxRequestBodySize: MAX_BODY_BYTES }),
  );
  const sessions: Sessions = new Sessions(
    limits,
    auth,
    (credentials, session, id) =>
      serverFor({
        credentials,
        toolsets: session.toolsets,
        session: {
          id,
          jobRecorded: sessions.calls
            ? (request, patch) => sessions.calls?.jobRecorded(id, request, patch)
            : undefined,
        },
        onUpstreamUnauthorized: () => sessions.refused(session),
      }),
    // With a shared store, 2025 sessions, their events and their calls are every replica's.
    store.shared ? { store, replica: runtime.replicaId, leaseMs: config.leaseMs, log } : undefined,
  );
  const calls = sessions.calls;
  await sessions.start();
  const probe = createProbes({ runtime, drain, sessions: () => sessions.registry.size });

  const withCaller = (req: IncomingMessage, caller: Caller) => {
    const authInfo: AuthInfo = {
      token: '',
      clientId: fingerprint(caller.credentials[0]!).slice(0, 16),
      scopes: [],
      extra: { caller },
    };
    return Object.assign(req, { auth: authInfo });
  };

  /**
   * The request path, top to bottom: each step answers the request (true: done) or passes it on.
   * What a step learns (the credential, the toolsets, the body) it leaves on the request for the next.
   */
  const steps: readonly (readonly [name: string, step: Step])[] = [
    // Liveness and readiness come first: a probe sends whatever Host its platform likes.
    ['probes', async (r) => r.url !== undefined && (await probe(r.res, r.url))],
    [
      'guard',
      (r) => {
        const { host, origin } = r.req.headers;
        if (
          hostAllowed(host, port, options.allowedHosts) &&
          originAllowed(origin, port, options.allowedHosts)
        )
          return false;
        refuse(r.res, 403, 'forbidden', 'Host or Origin not allowed (DNS rebinding protection).');
        return true;
      },
    ],
    [
      'metadata',
      (r) => {
        if (!r.url) return false;
        if (answerMetadata(r.req, r.res, r.url, mcpPath, runtime.target)) return true;
        if (answerServerCard(r.req, r.res, r.url, mcpPath)) return true;
        if (r.url.pathname === mcpPath) return false;
        refuse(r.res, 404, 'not_found', `MCP endpoint is ${mcpPath}`);
        return true;
      },
    ],
    [
      'drain',
      (r) => {
        if (!drain.draining) {
          drain.track(r.req, r.res);
          return false;
        }
        drain.refuse(r.res);
        return true;
      },
    ],
    [
      'credential',
      (r) => {
        const credential = auth.credential(r.req, r.res);
        if (!credential) return true;
        r.credential = credential;
        r.credentials = [credential, ...requestExtras(r.req)];
        // The request's log line only: no hash or scan of the body when requests are not logged.
        if (logRequest) {
          r.facts.tenant = fingerprint(credential).slice(0, 12);
          r.facts.secrets = r.credentials.map((c) => c.value);
        }
        return false;
      },
    ],
    [
      'rate',
      // Per key and per address, before the body is read: a flood costs a token check, not a parse.
      async (r) =>
        limiter.countsRequests &&
        !(await limiter.admit(r.res, fingerprint(r.credential!), auth.address(r.req))),
    ],
    [
      'toolsets',
      (r) => {
        const toolsets = parseToolsets(r.url?.searchParams.get('toolsets') ?? null);
        if (toolsets instanceof Error) {
          refuse(r.res, 400, 'invalid_toolsets', toolsets.message);
          return true;
        }
        r.toolsets = toolsets;
        return false;
      },
    ],
    [
      'body',
      async (r) => {
        const body = await readBody(r.req, r.res);
        if (body === HANDLED) return true;
        r.body = body;
        if (logRequest) Object.assign(r.facts, describeBody(body, toolNames));
        return false;
      },
    ],
    [
      'session',
      (r) => {
        // The 2025 session the request names. No budget step: each paid call reserves against its
        // key's ledger atomically when it runs, on whichever replica.
        r.sessionId = options.stateless ? undefined : header(r.req, 'mcp-session-id');
        return false;
      },
    ],
    ['route', (r) => route(r).then(() => true)],
  ];

  /** 2025 session / 2026-07-28 / stateless: who serves the request. */
  const route = async (r: PendingRequest): Promise<void> => {
    const { req, res, body, credentials, toolsets } = r;
    const era2025 =
      Boolean(r.sessionId) ||
      req.method !== 'POST' ||
      (await isLegacyRequest(await toWebRequest(req, body), body));
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
    if (r.sessionId) return sessions.continue(req, res, r.sessionId, credentials!, body);
    if (era2025 && !options.stateless && (req.method !== 'POST' || !isInitializeRequest(body))) {
      return refuse(
        res,
        400,
        'bad_request',
        'Bad request: send initialize first, or the Mcp-Session-Id header.',
      );
    }
    const vouched = await auth.vouch(req, res, r.credential!);
    if (!vouched.ok) return;
    const caller = { credentials: credentials!, toolsets };
    if (options.stateless) return stateless(withCaller(req, caller), res, body);
    if (!era2025) return modern(withCaller(req, caller), res, body);
    return sessions.open(req, res, credentials!, vouched.checked, body, toolsets);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, facts: RequestFacts) => {
    // Nearly every request names the endpoint as it is: only the others are parsed (a URL per
    // request is measurable per call: bench/NOTES.md).
    const url = req.url === mcpPath ? undefined : new URL(req.url ?? '/', 'http://localhost');
    const request: PendingRequest = { req, res, url, facts };
    for (const [, step] of steps) if (await step(request)) return;
  };

  const http: NodeServer = createServer((req, res) => {
    const facts = logRequest?.(req, res) ?? {};
    handle(req, res, facts).catch((error: unknown) => {
      log.error('HTTP request failed', { error: String(error) });
      if (!res.headersSent) refuse(res, 500, 'internal_error', 'Internal error.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}${mcpPath}`,
    port,
    async drain() {
      const outcome = await drain.drain({
        deadlineMs: config.drainMs,
        handOver: calls ? () => calls.handOver() : undefined,
        handBack: handBackJobs,
      });
      log.info(
        outcome.finished
          ? 'drained: every running call finished'
          : `drain deadline passed: ${outcome.handedOver} call(s) handed to other replicas, the rest answered with their job id`,
      );
    },
    async close() {
      await sessions.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await audit?.close();
      await limiter.close();
    },
  };
}

const HANDLED = Symbol('answered');

/** One request on its way through the steps, with what the steps before learned of it. */
interface PendingRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** Parsed only when the request is not for the endpoint's own path. */
  url: URL | undefined;
  facts: RequestFacts;
  credential?: Credential;
  credentials?: Credential[];
  toolsets?: Toolset[];
  body?: unknown;
  sessionId?: string;
}

/** A step answers the request (true) or passes it on (false). */
type Step = (request: PendingRequest) => boolean | Promise<boolean>;

/** The capped JSON body; an oversized or broken one is answered here. */
async function readBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  if (req.method !== 'POST') return undefined;
  const body = await readJson(req);
  if (body === TOO_LARGE) {
    refuse(
      res,
      413,
      'too_large',
      `Request body over ${MAX_BODY_BYTES / 1_048_576} MB; pass large media as a URL instead of inline data.`,
      // Stop the upload: the connection closes once this answer is sent.
      { connection: 'close' },
    );
    return HANDLED;
  }
  if (body instanceof Error) {
    refuse(res, 400, 'parse_error', 'Parse error: the body is not valid JSON.');
    return HANDLED;
  }
  return body;
}
