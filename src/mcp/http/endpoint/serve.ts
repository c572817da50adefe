import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpendBudgets } from '../../../budget/per-key.js';
import { handBackJobs } from '../../../jobs/wait.js';
import { createLogger, logsAt } from '../../../log.js';
import type { Runtime } from '../../../runtime.js';
import type { Registry } from '../../server.js';
import { HttpAuth } from '../auth/bearer.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { refuse } from '../auth/refuse.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from '../auth/session-bounds.js';
import { Sessions } from '../sessions/handler.js';
import { createRemoteServerFactory } from '../sessions/servers.js';
import { AuditLog } from './audit.js';
import { chain } from './chain.js';
import { Drain } from './drain.js';
import { type RequestFacts, requestLogger } from './log.js';
import { createProbes } from './probes.js';
import { routeStep } from './route.js';
import { bodyStep } from './steps/body.js';
import { credentialsStep } from './steps/credentials.js';
import { drainStep } from './steps/drain.js';
import { guardStep } from './steps/guard.js';
import { metadataStep } from './steps/metadata.js';
import { probesStep } from './steps/probes.js';
import { rateStep } from './steps/rate.js';
import { toolsetsStep } from './steps/toolsets.js';

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
  const serverFor = createRemoteServerFactory({ runtime, registry, auth, budgets, limiter, audit });
  const sessions = new Sessions({
    limits: { ...DEFAULT_SESSION_LIMITS, ...options.limits },
    auth,
    serverFor,
    longTools: new Map(
      registry.tools.entries.flatMap((entry) => (entry.long ? [[entry.name, entry.long]] : [])),
    ),
    // With a shared store, 2025 sessions, their events and their calls are every replica's.
    cluster: store.shared ? { store, replica: runtime.replicaId, leaseMs: config.leaseMs, log } : undefined,
  });
  await sessions.start();
  let port = options.port;

  // The request path, top to bottom (one file each in steps/, the era routing in route.ts).
  const handle = chain([
    probesStep(createProbes({ runtime, drain, sessions: () => sessions.registry.size })),
    guardStep(() => port, options.allowedHosts),
    metadataStep(mcpPath, runtime.target),
    drainStep(drain),
    credentialsStep(auth, logRequest !== undefined),
    rateStep(limiter, auth),
    toolsetsStep,
    bodyStep(logRequest && toolNames),
    routeStep({ auth, sessions, serverFor, stateless: options.stateless }),
  ]);

  const answer = async (req: IncomingMessage, res: ServerResponse, facts: RequestFacts) => {
    // Nearly every request names the endpoint as it is: only the others are parsed (a URL per
    // request is measurable per call: bench/NOTES.md).
    const url = req.url === mcpPath ? undefined : new URL(req.url ?? '/', 'http://localhost');
    await handle({ req, res, url, facts });
  };
  const http: NodeServer = createServer((req, res) => {
    answer(req, res, logRequest?.(req, res) ?? {}).catch((error: unknown) => {
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
      const calls = sessions.calls;
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
