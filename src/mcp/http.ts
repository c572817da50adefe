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
import { ConfigSchema, type Toolset } from '../config.js';
import { registerSecret } from '../log.js';
import type { Runtime } from '../runtime.js';
import { SANDBOX_DEMO_KEY } from '../sandbox/constants.js';
import { VERSION } from '../version.js';
import { SessionEventStore } from './event-store.js';
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

/** Bearer or x-api-key; with --sandbox an anonymous request gets the demo key, never elsewhere. */
function requestCredential(req: IncomingMessage, runtime: Runtime): Credential | undefined {
  const auth = header(req, 'authorization');
  const bearer = auth?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const value = bearer ?? header(req, 'x-api-key');
  if (value) {
    registerSecret(value);
    return { kind: 'api_key', value, source: 'request' };
  }
  if (runtime.target.kind === 'sandbox')
    return { kind: 'api_key', value: SANDBOX_DEMO_KEY, source: 'sandbox' };
  return undefined;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostAllowed(host: string | undefined, port: number, extra: string[] = []): boolean {
  if (!host) return false;
  if (extra.includes(host)) return true;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  if (!match) return false;
  return LOOPBACK.has(match[1]!.toLowerCase()) && (match[2] === undefined || Number(match[2]) === port);
}

/** Browsers send Origin; a page on another site must not reach a local server (DNS rebinding). */
function originAllowed(origin: string | undefined, port: number): boolean {
  if (!origin) return true;
  try {
    const url = new URL(origin);
    return LOOPBACK.has(url.hostname === '::1' ? '[::1]' : url.hostname) && Number(url.port || 80) === port;
  } catch {
    return false;
  }
}

function parseToolsets(value: string | null): Toolset[] | undefined | Error {
  if (value === null) return undefined;
  const parsed = ConfigSchema.shape.toolsets.safeParse(value);
  return parsed.success
    ? parsed.data
    : new Error(parsed.error.issues.map((issue) => issue.message).join('; '));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Inline media arguments (base64 data URLs of a few 4 MB inputs) fit; a flood of bytes does not. */
const MAX_BODY_BYTES = 16 * 1_048_576;
const TOO_LARGE = Symbol('too large');

async function readJson(req: IncomingMessage): Promise<unknown> {
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return TOO_LARGE;
  const raw = await readCapped(req);
  if (raw === TOO_LARGE || raw.length === 0) return raw === TOO_LARGE ? raw : undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return new Error('invalid json');
  }
}

/** The body up to the cap. Past it, reading stops without destroying the socket, so a 413 can still go out. */
function readCapped(req: IncomingMessage): Promise<Buffer | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(TOO_LARGE);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  json(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}
