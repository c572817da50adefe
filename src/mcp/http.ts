import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { resources } from '../../resources/index.js';
import { toolCatalog } from '../../tools/index.js';
import type { Credential } from '../auth/credentials.js';
import type { Toolset } from '../config.js';
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
import { fingerprint, RejectedKeys, RequestCredentials } from './request-credentials.js';
import {
  isResourceMetadataPath,
  publicOrigin,
  resourceMetadata,
  wwwAuthenticate,
} from './resource-metadata.js';
import { createMcpServer } from './server.js';

export interface HttpOptions {
  port: number;
  host: string;
  /** No sessions: every request gets a fresh server (horizontal scaling, serverless). */
  stateless: boolean;
  /** Extra Host header values to accept (for a reverse proxy); loopback names are always accepted. */
  allowedHosts?: string[];
  path?: string;
  /** A session with no open stream and no request for this long is closed (default 30 min). */
  sessionIdleMs?: number;
  /** Sessions one key may hold at once (default 100). */
  maxSessionsPerKey?: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Fingerprint of the credential the session serves; other credentials are refused on it. */
  owner: string;
  credentials: RequestCredentials;
  /** When its last request came or its last stream closed. */
  lastSeen: number;
  /** Responses still open (a streamed call, the standalone GET stream). */
  open: number;
}

const MAX_SESSIONS_PER_KEY = 100;

/** How long a client may wait before reconnecting a dropped stream (sent as the SSE `retry` field). */
const RECONNECT_MS = 1_000;

export interface RunningHttp {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Streamable HTTP: stateful sessions or stateless, DNS-rebinding checks, per-request credentials, a health route. */
export async function serveHttp(runtime: Runtime, options: HttpOptions): Promise<RunningHttp> {
  const mcpPath = options.path ?? '/mcp';
  const sessions = new Map<string, Session>();
  let port = options.port;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;

  /** Counts the response as open until it closes: a session with a live stream is never idle. */
  const track = (session: Session, res: ServerResponse) => {
    session.lastSeen = Date.now();
    session.open++;
    res.once('close', () => {
      session.open--;
      session.lastSeen = Date.now();
    });
  };
  // Clients that vanish without DELETE would otherwise keep their session (and its events) forever.
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const session of sessions.values()) {
        if (session.open === 0 && now - session.lastSeen > idleMs) session.transport.close().catch(() => {});
      }
    },
    Math.min(60_000, idleMs),
  );
  sweeper.unref();

  /**
   * One key may hold a bounded number of sessions, so a client that leaks them (or one that means
   * harm) cannot fill the server's memory. At the bound the key's longest-idle session gives way;
   * when all of them have streams open, the new one is refused.
   */
  const makeRoomFor = (owner: string): boolean => {
    const mine = [...sessions.values()].filter((session) => session.owner === owner);
    if (mine.length < (options.maxSessionsPerKey ?? MAX_SESSIONS_PER_KEY)) return true;
    const idle = mine.filter((session) => session.open === 0).sort((a, b) => a.lastSeen - b.lastSeen)[0];
    if (!idle) return false;
    sessions.delete(idle.transport.sessionId!);
    idle.transport.close().catch(() => {});
    return true;
  };

  const rejected = new RejectedKeys();
  const credentialsFor = (credential: Credential) =>
    new RequestCredentials(credential, (refused) => rejected.add(fingerprint(refused)));

  const newServer = (credentials: RequestCredentials, toolsets?: Toolset[]) =>
    createMcpServer({
      config: runtime.config,
      client: runtime.client,
      credentials,
      tools: toolCatalog,
      resources,
      files: runtime.files,
      version: VERSION,
      toolsets,
      target: runtime.target,
    });

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

    const credential = requestCredential(req, runtime);
    if (!credential) {
      res.setHeader('WWW-Authenticate', wwwAuthenticate(publicOrigin(req), mcpPath, runtime.target));
      return json(res, 401, {
        error: 'unauthorized',
        message:
          'Sign in with OAuth (see the resource_metadata in WWW-Authenticate) or send the platform API key as `Authorization: Bearer <key>` or `x-api-key`.',
      });
    }
    const owner = fingerprint(credential);
    if (rejected.has(owner)) {
      // RFC 6750: the client learns its token is bad, and an OAuth client signs in again.
      res.setHeader(
        'WWW-Authenticate',
        wwwAuthenticate(publicOrigin(req), mcpPath, runtime.target, 'invalid_token'),
      );
      return json(res, 401, {
        error: 'invalid_token',
        message:
          'The platform refused this key (401) on an earlier call. Sign in again, or send a valid key as `Authorization: Bearer <key>`.',
      });
    }
    const toolsets = parseToolsets(url.searchParams.get('toolsets'));
    if (toolsets instanceof Error)
      return json(res, 400, { error: 'invalid_toolsets', message: toolsets.message });

    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (body === TOO_LARGE) {
      // Stop the upload: the connection closes once this answer is sent.
      res.setHeader('connection', 'close');
      return rpcError(
        res,
        413,
        -32000,
        `Request body over ${MAX_BODY_BYTES / 1_048_576} MB; pass large media as a URL instead of inline data.`,
      );
    }
    if (body instanceof Error) return rpcError(res, 400, -32700, 'Parse error: the body is not valid JSON.');

    if (options.stateless) {
      const server = newServer(credentialsFor(credential), toolsets);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        transport.close().catch(() => {});
        server.close().catch(() => {});
      });
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }

    const sessionId = header(req, 'mcp-session-id');
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session) return rpcError(res, 404, -32001, 'Session not found; initialize a new session.');
      if (session.owner !== owner && rejected.has(session.owner)) {
        // The key this session served was refused and its client signed in again: the session
        // (and any call it has running) carries on with the new key.
        session.owner = owner;
        session.credentials.replace(credential);
      } else if (session.owner !== owner) {
        return rpcError(
          res,
          403,
          -32003,
          'This session belongs to another credential; open your own session.',
        );
      }
      track(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return rpcError(res, 400, -32000, 'Bad request: send initialize first, or the Mcp-Session-Id header.');
    }
    if (!makeRoomFor(owner)) {
      return rpcError(
        res,
        429,
        -32000,
        `This key already has ${options.maxSessionsPerKey ?? MAX_SESSIONS_PER_KEY} sessions with open streams; close one (DELETE) before opening another.`,
      );
    }
    const credentials = credentialsFor(credential);
    const server = newServer(credentials, toolsets);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const session: Session = { transport, server, owner, credentials, lastSeen: Date.now(), open: 0 };
        sessions.set(id, session);
        track(session, res);
      },
      // Events are kept so a dropped stream can be resumed with Last-Event-ID.
      eventStore: new SessionEventStore(),
      retryInterval: RECONNECT_MS,
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      server.close().catch(() => {});
    };
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
  };

  const http: NodeServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) rpcError(res, 500, -32603, `Internal error: ${(error as Error).message}`);
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
      clearInterval(sweeper);
      for (const session of sessions.values()) await session.transport.close().catch(() => {});
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
