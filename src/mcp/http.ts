import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Toolset } from '../config.js';
import type { Credential } from '../credentials.js';
import { createLogger } from '../log.js';
import type { Runtime } from '../runtime.js';
import { VERSION } from '../version.js';
import { SessionEventStore } from './event-store.js';
import {
  header,
  hostAllowed,
  json,
  MAX_BODY_BYTES,
  originAllowed,
  parseToolsets,
  readJson,
  requestCredential,
  rpcError,
  TOO_LARGE,
} from './http-request.js';
import {
  DEFAULT_SESSION_LIMITS,
  type Session,
  type SessionLimits,
  SessionRegistry,
} from './http-sessions.js';
import { KeyChecker } from './key-check.js';
import { fingerprint, RequestCredentials } from './request-credentials.js';
import {
  isResourceMetadataPath,
  publicOrigin,
  resourceMetadata,
  wwwAuthenticate,
} from './resource-metadata.js';
import { createMcpServer, type Registry } from './server.js';

export interface HttpOptions {
  port: number;
  host: string;
  /** No sessions: every request gets a fresh server (horizontal scaling, serverless). */
  stateless: boolean;
  /** Extra Host header values to accept (for a reverse proxy); loopback names are always accepted. */
  allowedHosts?: string[];
  path?: string;
  /** Bounds on sessions (per key, per address, in total) and their idle time. */
  limits?: Partial<SessionLimits>;
}

/** How long a client may wait before reconnecting a dropped stream (sent as the SSE `retry` field). */
const RECONNECT_MS = 1_000;

export interface RunningHttp {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Streamable HTTP. Every client is a stranger: its key is checked with the platform before a
 * session is opened, a session serves the key that opened it and no other, every bound holds
 * before work starts, and its files and jobs are its own (the tenant is the key's fingerprint).
 */
export async function serveHttp(
  runtime: Runtime,
  registry: Registry,
  options: HttpOptions,
): Promise<RunningHttp> {
  const mcpPath = options.path ?? '/mcp';
  const sessions = new SessionRegistry({ ...DEFAULT_SESSION_LIMITS, ...options.limits });
  const keys = new KeyChecker(runtime.client, createLogger(runtime.config.logLevel));
  let port = options.port;

  const newServer = (credential: Credential, toolsets: Toolset[] | undefined, session?: Session) =>
    createMcpServer({
      ...registry,
      config: runtime.config,
      client: runtime.client,
      credentials: new RequestCredentials(credential, (refused) => {
        keys.forget(refused);
        if (session) session.refused = true;
      }),
      files: runtime.files,
      jobs: runtime.jobs,
      trust: 'remote',
      tenant: fingerprint(credential).slice(0, 32),
      secrets: [credential.value],
      version: VERSION,
      toolsets,
      target: runtime.target,
    });

  /** RFC 6750: the client learns its key is bad, and an OAuth client signs in again. */
  const invalidToken = (req: IncomingMessage, res: ServerResponse, message: string) => {
    res.setHeader(
      'WWW-Authenticate',
      wwwAuthenticate(publicOrigin(req), mcpPath, runtime.target, 'invalid_token'),
    );
    json(res, 401, { error: 'invalid_token', message });
  };

  /** Asks the platform about a key the first time it is seen; a refused key opens nothing. */
  const vouch = async (req: IncomingMessage, res: ServerResponse, credential: Credential) => {
    if (credential.source === 'sandbox') return { ok: true as const, checked: true };
    const verdict = await keys.check(credential, req.socket.remoteAddress ?? 'unknown');
    if (verdict === 'throttled') {
      res.setHeader('retry-after', '60');
      rpcError(res, 429, -32000, 'Too many refused keys from your address; wait a minute.');
      return { ok: false as const };
    }
    if (verdict === 'refused') {
      invalidToken(req, res, 'The platform does not accept this key. Sign in again, or send a valid key.');
      return { ok: false as const };
    }
    return { ok: true as const, checked: verdict === 'valid' };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (
      !hostAllowed(req.headers.host, port, options.allowedHosts) ||
      !originAllowed(req.headers.origin, port)
    ) {
      return json(res, 403, {
        error: 'forbidden',
        message: 'Host or Origin not allowed (DNS rebinding protection).',
      });
    }
    if (url.pathname === '/health') {
      return json(res, 200, {
        status: 'ok',
        version: VERSION,
        target: runtime.target.kind,
        sessions: sessions.size,
      });
    }
    if (isResourceMetadataPath(url.pathname, mcpPath)) {
      const doc = resourceMetadata(publicOrigin(req), mcpPath, runtime.target);
      if (doc) return json(res, 200, doc);
      return json(res, 404, {
        error: 'not_found',
        message: 'No platform is configured, so there is no authorization server.',
      });
    }
    if (url.pathname !== mcpPath)
      return json(res, 404, { error: 'not_found', message: `MCP endpoint is ${mcpPath}` });

    const credential = requestCredential(req, runtime.target);
    if (!credential) {
      res.setHeader('WWW-Authenticate', wwwAuthenticate(publicOrigin(req), mcpPath, runtime.target));
      return json(res, 401, {
        error: 'unauthorized',
        message:
          'Sign in with OAuth (see the resource_metadata in WWW-Authenticate) or send the platform API key as `Authorization: Bearer <key>` or `x-api-key`.',
      });
    }
    const owner = fingerprint(credential);
    const toolsets = parseToolsets(url.searchParams.get('toolsets'));
    if (toolsets instanceof Error)
      return json(res, 400, { error: 'invalid_toolsets', message: toolsets.message });

    const sessionId = options.stateless ? undefined : header(req, 'mcp-session-id');
    if (sessionId) {
      const session = sessions.find(sessionId, owner);
      if (!session?.transport)
        return rpcError(res, 404, -32001, 'Session not found; initialize a new session.');
      if (session.refused) {
        // The key was refused during this session; the client signs in again and opens a new one.
        sessions.close(session);
        return invalidToken(
          req,
          res,
          'The platform refused this key (401). Sign in again, then open a new session.',
        );
      }
      const body = await readBody(req, res);
      if (body === HANDLED) return;
      sessions.track(session, res);
      return session.transport.handleRequest(req, res, body);
    }

    const body = await readBody(req, res);
    if (body === HANDLED) return;
    if (!options.stateless && (req.method !== 'POST' || !isInitializeRequest(body))) {
      return rpcError(res, 400, -32000, 'Bad request: send initialize first, or the Mcp-Session-Id header.');
    }
    const vouched = await vouch(req, res, credential);
    if (!vouched.ok) return;

    if (options.stateless) {
      const server = newServer(credential, toolsets);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        transport.close().catch(() => {});
        server.close().catch(() => {});
      });
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }

    const admission = sessions.admit(owner, req.socket.remoteAddress ?? 'unknown', vouched.checked);
    if (!admission.ok) {
      if (admission.status === 503) res.setHeader('retry-after', '30');
      return rpcError(res, admission.status, -32000, admission.message);
    }
    const session = admission.session;
    const server = newServer(credential, toolsets, session);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.opened(session, id),
      // Events are kept so a dropped stream can be resumed with Last-Event-ID.
      eventStore: new SessionEventStore(),
      retryInterval: RECONNECT_MS,
    });
    session.transport = transport;
    session.server = server;
    transport.onclose = () => {
      sessions.remove(session);
      server.close().catch(() => {});
    };
    sessions.track(session, res);
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
  };

  const http: NodeServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      createLogger(runtime.config.logLevel).error('HTTP request failed', { error: String(error) });
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
    async close() {
      await sessions.closeAll();
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
