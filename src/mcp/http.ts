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
import type { Toolset } from '../config.js';
import type { Credential } from '../credentials.js';
import { handBackJobs } from '../jobs/drain.js';
import { createLogger, logsAt } from '../log.js';
import type { Runtime } from '../runtime.js';
import { HttpAuth } from './http-auth.js';
import { SpendBudgets } from './http-budgets.js';
import { CallTracker } from './http-calls.js';
import { SessionDirectory } from './http-directory.js';
import { Drain } from './http-drain.js';
import { LegacySessions } from './http-legacy.js';
import { describeBody, type RequestFacts, requestLogger } from './http-log.js';
import { answerMetadata, createProbes } from './http-probes.js';
import {
  header,
  hostAllowed,
  json,
  MAX_BODY_BYTES,
  originAllowed,
  parseToolsets,
  readJson,
  requestExtras,
  rpcError,
  TOO_LARGE,
} from './http-request.js';
import { createRemoteServerFactory } from './http-servers.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './http-sessions.js';
import { fingerprint } from './request-credentials.js';
import type { Registry } from './server.js';

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
  const drain = new Drain();
  const toolNames = new Set(registry.tools.entries.map((entry) => entry.name));
  const logRequest = logsAt(config.logLevel, 'info')
    ? requestLogger({ replica: runtime.replicaId, tools: toolNames })
    : undefined;
  // With a shared store, 2025 sessions, their events and their calls are every replica's.
  const calls = store.shared
    ? new CallTracker({
        store,
        replica: runtime.replicaId,
        leaseMs: config.leaseMs,
        ttlMs: limits.idleMs,
        log,
      })
    : undefined;
  const stopObserving = calls
    ? runtime.jobs.observe((_tenant, patch) => calls.jobRecorded(patch))
    : undefined;
  let port = options.port;

  const serverFor = createRemoteServerFactory({ runtime, registry, auth, budgets });

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
  const sessions = new LegacySessions(
    limits,
    auth,
    (credentials, session, id) =>
      serverFor({
        credentials,
        toolsets: session.toolsets,
        session: { id, refused: () => sessions.refused(session) },
      }),
    calls
      ? { store, directory: new SessionDirectory(store, limits, log), calls, leaseMs: config.leaseMs, log }
      : undefined,
  );
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

  const handleMcp = async (
    req: IncomingMessage,
    res: ServerResponse,
    query: URLSearchParams | undefined,
    facts: RequestFacts,
  ) => {
    const credential = auth.credential(req, res);
    if (!credential) return;
    const credentials = [credential, ...requestExtras(req)];
    // The request's log line only: no hash or scan of the body when requests are not logged.
    if (logRequest) {
      facts.tenant = fingerprint(credential).slice(0, 12);
      facts.secrets = credentials.map((c) => c.value);
    }
    const toolsets = parseToolsets(query?.get('toolsets') ?? null);
    if (toolsets instanceof Error)
      return json(res, 400, { error: 'invalid_toolsets', message: toolsets.message });
    const body = await readBody(req, res);
    if (body === HANDLED) return;
    if (logRequest) Object.assign(facts, describeBody(body, toolNames));
    const sessionId = options.stateless ? undefined : header(req, 'mcp-session-id');
    if (sessionId) return sessions.continue(req, res, sessionId, credentials, body);

    const legacy = req.method !== 'POST' || (await isLegacyRequest(await toWebRequest(req, body), body));
    if (legacy && !options.stateless && (req.method !== 'POST' || !isInitializeRequest(body))) {
      return rpcError(res, 400, -32000, 'Bad request: send initialize first, or the Mcp-Session-Id header.');
    }
    const vouched = await auth.vouch(req, res, credential);
    if (!vouched.ok) return;
    const caller = { credentials, toolsets };
    if (options.stateless) return stateless(withCaller(req, caller), res, body);
    if (!legacy) return modern(withCaller(req, caller), res, body);
    return sessions.open(req, res, credentials, vouched.checked, body, toolsets);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, facts: RequestFacts) => {
    // Nearly every request names the endpoint as it is: only the others are parsed (a URL per
    // request was about 1% of a 2025 call's CPU).
    const url = req.url === mcpPath ? undefined : new URL(req.url ?? '/', 'http://localhost');
    if (url && (await probe(res, url))) return;
    if (
      !hostAllowed(req.headers.host, port, options.allowedHosts) ||
      !originAllowed(req.headers.origin, port)
    ) {
      return json(res, 403, {
        error: 'forbidden',
        message: 'Host or Origin not allowed (DNS rebinding protection).',
      });
    }
    if (url && answerMetadata(req, res, url, mcpPath, runtime.target)) return;
    if (url && url.pathname !== mcpPath)
      return json(res, 404, { error: 'not_found', message: `MCP endpoint is ${mcpPath}` });
    if (drain.draining) return drain.refuse(res);
    drain.track(req, res);
    return handleMcp(req, res, url?.searchParams, facts);
  };

  const http: NodeServer = createServer((req, res) => {
    const facts = logRequest?.(req, res) ?? {};
    handle(req, res, facts).catch((error: unknown) => {
      log.error('HTTP request failed', { error: String(error) });
      if (!res.headersSent) rpcError(res, 500, -32603, 'Internal error.');
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
      stopObserving?.();
      await sessions.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const HANDLED = Symbol('answered');

/** The capped JSON body; an oversized or broken one is answered here. */
async function readBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  if (req.method !== 'POST') return undefined;
  const body = await readJson(req);
  if (body === TOO_LARGE) {
    // Stop the upload: the connection closes once this answer is sent.
    res.setHeader('connection', 'close');
    rpcError(
      res,
      413,
      -32000,
      `Request body over ${MAX_BODY_BYTES / 1_048_576} MB; pass large media as a URL instead of inline data.`,
    );
    return HANDLED;
  }
  if (body instanceof Error) {
    rpcError(res, 400, -32700, 'Parse error: the body is not valid JSON.');
    return HANDLED;
  }
  return body;
}
