import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Credential, type CredentialProvider, StaticCredentials } from '../../../src/credentials.js';
import {
  AbortedError,
  AuthenticationError,
  ConnectionError,
  MissingCredentialError,
  NotFoundError,
  OrbitError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UpstreamInvalidError,
} from '../../../src/errors.js';
import { createLogger } from '../../../src/log.js';
import { type CallScope, HttpClient } from '../../../src/upstream/client.js';
import { type Handler, json, type ScriptedServer, silent, startServer, text } from './server.js';

const KEY: Credential = { kind: 'api_key', value: 'sk-test-abcdefgh1234', source: 'env' };
const Models = z.object({ data: z.array(z.object({ id: z.string(), context_length: z.number() })) });

let server: ScriptedServer;
const clients: HttpClient[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterEach(async () => {
  server.requests.length = 0;
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await server.close();
});

function makeClient(
  options: { baseUrl?: string | null; timeoutMs?: number; maxRetries?: number; maxTotalWaitMs?: number } = {},
) {
  const client = new HttpClient({
    baseUrl: options.baseUrl === null ? undefined : (options.baseUrl ?? server.baseUrl),
    timeoutMs: options.timeoutMs ?? 5_000,
    userAgent: 't',
    retry: {
      baseDelayMs: 1,
      maxDelayMs: 5,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.maxTotalWaitMs === undefined ? {} : { maxTotalWaitMs: options.maxTotalWaitMs }),
    },
  });
  clients.push(client);
  return client;
}

function scope(overrides: Partial<CallScope> = {}): CallScope {
  return {
    credentials: new StaticCredentials([KEY]),
    signal: new AbortController().signal,
    log: createLogger('silent'),
    ...overrides,
  };
}

/** Resolves with what a promise rejected with, failing the test when it resolved. */
async function failure(promise: Promise<unknown>): Promise<OrbitError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OrbitError);
    return error as OrbitError;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

describe('HttpClient.request', () => {
  it('returns a JSON reply validated by the schema, with status and request id', async () => {
    server.script(json(200, { data: [{ id: 'm1', context_length: 8192 }] }, { 'x-request-id': 'req_ok' }));
    const res = await makeClient()
      .api(scope())
      .request({ method: 'GET', path: '/api/v1/models', schema: Models });
    expect(res.data).toEqual({ data: [{ id: 'm1', context_length: 8192 }] });
    expect(res.status).toBe(200);
    expect(res.requestId).toBe('req_ok');
    expect(res.headers['content-type']).toBe('application/json');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/api/v1/models' });
    expect(server.requests[0]?.headers['user-agent']).toBe('t');
  });

  it('keeps a request id to 128 printable characters, however long the header the reply brings', async () => {
    const long = `req_${'x'.repeat(5_000)}`;
    server.script(
      json(200, { data: [] }, { 'x-request-id': long }),
      json(200, { data: [] }, { 'x-request-id': ' \t ' }),
    );
    const client = makeClient().api(scope());
    const res = await client.request({ method: 'GET', path: '/api/v1/models', schema: Models });
    expect(res.requestId).toBe(`${long.slice(0, 128)}…`);
    const blank = await client.request({ method: 'GET', path: '/api/v1/models', schema: Models });
    expect(blank.requestId).toBeUndefined();
  });

  it('fails with upstream_invalid naming the field path when a field has the wrong type', async () => {
    server.script(json(200, { data: [{ id: 'm1', context_length: 'big' }] }, { 'x-request-id': 'req_bad' }));
    const error = await failure(
      makeClient().api(scope()).request({ method: 'GET', path: '/api/v1/models', schema: Models }),
    );
    expect(error).toBeInstanceOf(UpstreamInvalidError);
    expect(error.code).toBe('upstream_invalid');
    expect(error.message).toContain('data.0.context_length');
    expect(error.message).toContain('/api/v1/models');
    expect(error.requestId).toBe('req_bad');
  });

  it('fails with upstream_invalid when the reply is not JSON', async () => {
    server.script(text(200, '{"data": [', { 'x-request-id': 'req_mal' }));
    const error = await failure(
      makeClient().api(scope()).request({ method: 'GET', path: '/api/v1/models', schema: Models }),
    );
    expect(error).toBeInstanceOf(UpstreamInvalidError);
    expect(error.code).toBe('upstream_invalid');
    expect(error.requestId).toBe('req_mal');
    expect(error.details).toEqual({ preview: '{"data": [' });
  });

  it('retries a GET after a 503 and succeeds, the server seeing two requests', async () => {
    server.script(
      json(503, { error: { message: 'busy', type: 'service_unavailable' } }),
      json(200, { data: [] }),
    );
    const res = await makeClient()
      .api(scope())
      .request({ method: 'GET', path: '/api/v1/models', schema: Models });
    expect(res.data).toEqual({ data: [] });
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('gives up on a GET after maxRetries and throws the last ServerError', async () => {
    server.script(
      json(500, { error: { message: 'exploded', type: 'server_error' } }, { 'x-request-id': 'req_500' }),
    );
    const error = await failure(
      makeClient().api(scope()).request({ method: 'GET', path: '/api/v1/models', schema: Models }),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('exploded');
    expect(error.requestId).toBe('req_500');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a POST after a 503', async () => {
    server.script(json(503, { error: { message: 'busy' } }), json(200, { ok: true }));
    const error = await failure(
      makeClient()
        .api(scope())
        .request({ method: 'POST', path: '/api/v1/chat/completions', body: { a: 1 }, schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(error.code).toBe('server_error');
    expect(error.status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a POST carrying an idempotency key after a 503, sending the same key and body', async () => {
    server.script(json(503, { error: { message: 'busy' } }), json(200, { ok: true }));
    const res = await makeClient()
      .api(scope())
      .request({
        method: 'POST',
        path: '/api/v1/keys',
        body: { name: 'k' },
        idempotencyKey: 'idem-1',
        schema: z.object({ ok: z.boolean() }),
      });
    expect(res.data.ok).toBe(true);
    expect(server.requests).toHaveLength(2);
    for (const seen of server.requests) {
      expect(seen.headers['idempotency-key']).toBe('idem-1');
      expect(seen.headers['content-type']).toBe('application/json');
      expect(JSON.parse(seen.body)).toEqual({ name: 'k' });
    }
  });

  it('retries a POST after a 429 with Retry-After: 0', async () => {
    server.script(
      json(429, { error: { message: 'slow down' } }, { 'retry-after': '0' }),
      json(200, { ok: true }),
    );
    const res = await makeClient()
      .api(scope())
      .request({
        method: 'POST',
        path: '/api/v1/chat/completions',
        body: {},
        schema: z.object({ ok: z.boolean() }),
      });
    expect(res.data.ok).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('fails at once with a RateLimitError when Retry-After is a day away', async () => {
    server.script(
      json(
        429,
        {
          error: {
            message: 'Daily request limit reached',
            type: 'rate_limit_error',
            code: 'daily_rpd_limit_exceeded',
          },
        },
        { 'retry-after': '86400', 'x-request-id': 'req_429' },
      ),
    );
    const error = await failure(
      makeClient().api(scope()).request({ method: 'GET', path: '/api/v1/models', schema: Models }),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(86_400_000);
    expect(error.upstreamCode).toBe('daily_rpd_limit_exceeded');
    expect(error.requestId).toBe('req_429');
    expect(server.requests).toHaveLength(1);
  });

  it('keeps X-Request-ID on an error reply', async () => {
    server.script(
      json(
        404,
        { error: { message: 'No such key', type: 'not_found_error' } },
        { 'X-Request-ID': 'req_404' },
      ),
    );
    const error = await failure(
      makeClient()
        .api(scope())
        .request({ method: 'GET', path: '/api/v1/keys/nope', schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.requestId).toBe('req_404');
    expect(error.message).toBe('No such key');
  });

  it('turns a non-JSON error body into a readable message', async () => {
    server.script(text(400, 'Bad Request: missing model'));
    const error = await failure(
      makeClient()
        .api(scope())
        .request({ method: 'POST', path: '/x', body: {}, schema: z.object({}) }),
    );
    expect(error.code).toBe('bad_request');
    expect(error.message).toBe('Bad Request: missing model');
  });

  it('fails with TimeoutError when the server never answers', async () => {
    server.script(silent);
    const error = await failure(
      makeClient({ timeoutMs: 100, maxRetries: 0 })
        .api(scope())
        .request({ method: 'GET', path: '/slow', schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('100 ms');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a GET that timed out, up to maxRetries', async () => {
    server.script(silent);
    const error = await failure(
      makeClient({ timeoutMs: 100 })
        .api(scope())
        .request({ method: 'GET', path: '/slow', schema: z.object({}) }),
    );
    expect(error.code).toBe('timeout');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry once the attempts have used up maxTotalWaitMs', async () => {
    server.script(silent);
    const error = await failure(
      makeClient({ timeoutMs: 300, maxTotalWaitMs: 100 })
        .api(scope())
        .request({ method: 'GET', path: '/slow', schema: z.object({}) }),
    );
    expect(error.code).toBe('timeout');
    // The timed-out attempt alone took longer than the budget: failing now beats waiting 3 x 300 ms.
    expect(server.requests).toHaveLength(1);
  });

  it('throws AbortedError when the caller aborts a pending request', async () => {
    server.script(silent);
    const controller = new AbortController();
    const pending = makeClient()
      .api(scope({ signal: controller.signal }))
      .request({ method: 'GET', path: '/slow', schema: z.object({}) });
    setTimeout(() => controller.abort(), 50);
    const error = await failure(pending);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.code).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('throws AbortedError without sending when the signal is already aborted', async () => {
    server.script(json(200, {}));
    const error = await failure(
      makeClient()
        .api(scope({ signal: AbortSignal.abort() }))
        .request({ method: 'GET', path: '/x', schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(AbortedError);
    expect(server.requests).toHaveLength(0);
  });

  it('throws AbortedError when aborted while waiting to retry', async () => {
    server.script(json(503, { error: { message: 'busy' } }, { 'retry-after': '10' }));
    const controller = new AbortController();
    const client = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, userAgent: 't' });
    clients.push(client);
    const pending = client
      .api(scope({ signal: controller.signal }))
      .request({ method: 'GET', path: '/x', schema: z.object({}) });
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await failure(pending);
    expect(error).toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });

  it('throws MissingCredentialError before sending anything', async () => {
    server.script(json(200, {}));
    const error = await failure(
      makeClient()
        .api(scope({ credentials: new StaticCredentials([]) }))
        .request({ method: 'GET', path: '/x', credential: 'management_token', schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(MissingCredentialError);
    expect(error.code).toBe('missing_credential');
    expect(error.fix).toContain('ORBIT_MANAGEMENT_TOKEN');
    expect(error.details).toEqual({ credential: 'management_token' });
    expect(server.requests).toHaveLength(0);
  });

  it('sends the API key as a bearer token by default', async () => {
    server.script(json(200, {}));
    await makeClient()
      .api(scope())
      .request({ method: 'GET', path: '/x', schema: z.object({}) });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY.value}`);
    expect(server.requests[0]?.headers.cookie).toBeUndefined();
  });

  it('sends the management token as a bearer token when asked for', async () => {
    server.script(json(200, {}));
    const credentials = new StaticCredentials([
      KEY,
      { kind: 'management_token', value: 'mt-manage-12345678', source: 'env' },
    ]);
    await makeClient()
      .api(scope({ credentials }))
      .request({ method: 'GET', path: '/x', credential: 'management_token', schema: z.object({}) });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer mt-manage-12345678');
  });

  it('sends a bare session value in the platform session cookie and no Authorization header', async () => {
    server.script(json(200, {}));
    const credentials = new StaticCredentials([{ kind: 'session', value: 'abc123session', source: 'env' }]);
    await makeClient()
      .api(scope({ credentials }))
      .request({ method: 'GET', path: '/x', credential: 'session', schema: z.object({}) });
    expect(server.requests[0]?.headers.cookie).toBe('orbit_session=abc123session');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('sends a session that is already a cookie pair unchanged', async () => {
    server.script(json(200, {}));
    const credentials = new StaticCredentials([
      { kind: 'session', value: 'sid=xyz; theme=dark', source: 'env' },
    ]);
    await makeClient()
      .api(scope({ credentials }))
      .request({ method: 'GET', path: '/x', credential: 'session', schema: z.object({}) });
    expect(server.requests[0]?.headers.cookie).toBe('sid=xyz; theme=dark');
  });

  it('sends no credential for public routes', async () => {
    server.script(json(200, {}));
    await makeClient()
      .api(scope())
      .request({ method: 'GET', path: '/x', credential: 'none', schema: z.object({}) });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('sends each route as written, with or without a query, and normalised like a URL', async () => {
    const api = makeClient().api(scope());
    const paths: [string, Record<string, string | undefined>?][] = [
      ['/api/v1/models'],
      ['/api/v1/models', { sort: undefined }],
      ['/api/v1/models', { sort: 'mostused' }],
      ['/api/v1/models'],
      ['/api/v1/./models/../models'],
    ];
    for (const [path, query] of paths) {
      server.script(json(200, {}));
      await api.request({ method: 'GET', path, query, schema: z.object({}) });
    }
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/v1/models',
      '/api/v1/models',
      '/api/v1/models?sort=mostused',
      '/api/v1/models',
      '/api/v1/models',
    ]);
  });

  it('repeats array query values and drops undefined and null ones', async () => {
    server.script(json(200, {}));
    await makeClient()
      .api(scope())
      .request({
        method: 'GET',
        path: '/api/v1/models',
        query: { ids: ['a', 'b c'], limit: 5, free: true, skip: undefined, none: null },
        schema: z.object({}),
      });
    const url = new URL(server.requests[0]?.url ?? '', server.baseUrl);
    expect(url.searchParams.getAll('ids')).toEqual(['a', 'b c']);
    expect(url.searchParams.get('limit')).toBe('5');
    expect(url.searchParams.get('free')).toBe('true');
    expect(url.searchParams.has('skip')).toBe(false);
    expect(url.searchParams.has('none')).toBe(false);
  });

  it('uses the direct host for host: direct', async () => {
    const direct = await startServer();
    try {
      direct.script(json(200, { where: 'direct' }));
      server.script(json(200, { where: 'base' }));
      const client = new HttpClient({
        baseUrl: server.baseUrl,
        directBaseUrl: direct.baseUrl,
        timeoutMs: 5_000,
        userAgent: 't',
      });
      clients.push(client);
      const res = await client
        .api(scope())
        .request({ method: 'GET', path: '/v1/x', host: 'direct', schema: z.object({ where: z.string() }) });
      expect(res.data.where).toBe('direct');
      expect(server.requests).toHaveLength(0);
    } finally {
      await direct.close();
    }
  });

  it('fails with no_platform when no base URL is configured', async () => {
    const error = await failure(
      makeClient({ baseUrl: null })
        .api(scope())
        .request({ method: 'GET', path: '/x', schema: z.object({}) }),
    );
    expect(error.code).toBe('no_platform');
    expect(error.fix).toContain('ORBIT_BASE_URL');
    expect(error.fix).toContain('--sandbox');
  });

  it('tells the credential provider when the platform rejects the credential with 401', async () => {
    const rejected: Credential[] = [];
    const inner = new StaticCredentials([KEY]);
    const recording: CredentialProvider = {
      get: (kind) => inner.get(kind),
      describe: () => inner.describe(),
      rejected: async (credential) => {
        rejected.push(credential);
      },
    };
    server.script(json(401, { error: { message: 'Invalid API key', type: 'authentication_error' } }));
    const error = await failure(
      makeClient()
        .api(scope({ credentials: recording }))
        .request({ method: 'GET', path: '/x', schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(rejected).toEqual([KEY]);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a POST whose connection was refused, and reports connection_failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lines: string[] = [];
    const log = createLogger('debug', [(_level, line) => lines.push(line)]);
    const error = await failure(
      makeClient({ baseUrl: `http://127.0.0.1:${port}` })
        .api(scope({ log }))
        .request({ method: 'POST', path: '/api/v1/chat/completions', body: {}, schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.code).toBe('connection_failed');
    expect(error.message).toContain('ECONNREFUSED');
    expect(lines.filter((line) => line.startsWith('retrying POST'))).toHaveLength(2);
  });

  it('does not retry a POST whose connection was reset after it was sent', async () => {
    server.script((req) => req.socket.destroy());
    const error = await failure(
      makeClient()
        .api(scope())
        .request({ method: 'POST', path: '/api/v1/chat/completions', body: {}, schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.code).toBe('connection_failed');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a GET whose connection was reset', async () => {
    server.script((req) => req.socket.destroy(), json(200, { ok: true }));
    const res = await makeClient()
      .api(scope())
      .request({ method: 'GET', path: '/x', schema: z.object({ ok: z.boolean() }) });
    expect(res.data.ok).toBe(true);
    expect(server.requests).toHaveLength(2);
  });
});

describe('HttpClient reading a reply body', () => {
  const cutMidBody: Handler = (_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': '100',
      'x-request-id': 'req_cut',
    });
    res.write('{"data": [');
    setTimeout(() => res.socket?.destroy(), 20);
  };

  it('fails with ConnectionError, not a raw socket error, when the JSON body is cut off', async () => {
    server.script(cutMidBody);
    const error = await failure(
      makeClient()
        .api(scope())
        .request({ method: 'GET', path: '/x', schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.code).toBe('connection_failed');
    expect(error.requestId).toBe('req_cut');
    expect(error.fix).toMatch(/call again/i);
  });

  it('fails with ConnectionError when a binary body is cut off', async () => {
    server.script(cutMidBody);
    const error = await failure(makeClient().api(scope()).bytes({ method: 'GET', path: '/x' }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.requestId).toBe('req_cut');
  });

  it('fails with AbortedError when the caller aborts while the body is being read', async () => {
    const controller = new AbortController();
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"data": [');
      setTimeout(() => controller.abort(), 20);
    });
    const error = await failure(
      makeClient()
        .api(scope({ signal: controller.signal }))
        .request({ method: 'GET', path: '/x', schema: z.object({}) }),
    );
    expect(error).toBeInstanceOf(AbortedError);
  });
});

describe('HttpClient.bytes', () => {
  it('returns the raw bytes with their content type', async () => {
    const payload = Buffer.from([0, 1, 2, 250, 255]);
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'x-request-id': 'req_bytes' });
      res.end(payload);
    });
    const res = await makeClient()
      .api(scope())
      .bytes({ method: 'POST', path: '/api/v1/audio/speech', body: { text: 'hi' } });
    expect(res.contentType).toBe('audio/mpeg');
    expect(res.requestId).toBe('req_bytes');
    expect(res.data.equals(payload)).toBe(true);
  });

  it('sends raw body bytes exactly as given, as JSON, with extra headers and no credential', async () => {
    server.script(json(200, { ok: true }));
    // Key order and spacing a JSON.stringify of a parsed copy would not keep.
    const raw = Buffer.from('{"query": "orbit",  "a":1}');
    await makeClient()
      .api(scope())
      .bytes({
        method: 'POST',
        path: '/api/v1/data/web/search',
        rawBody: raw,
        credential: 'none',
        headers: { 'x-payment': 'cGF5bG9hZA==' },
      });
    const seen = server.requests[0]!;
    expect(seen.body).toBe(raw.toString());
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['x-payment']).toBe('cGF5bG9hZA==');
    expect(seen.headers.authorization).toBeUndefined();
  });

  it('tells onBytes about a JSON reply only when jsonProgress asks for it', async () => {
    const body = JSON.stringify({
      pages: Array.from({ length: 50 }, (_, i) => ({ i, text: 'x'.repeat(400) })),
    });
    const streamed: Handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.write(body.slice(0, 5000));
      setTimeout(() => res.end(body.slice(5000)), 20);
    };
    server.script(streamed);
    const quiet: number[] = [];
    await makeClient()
      .api(scope())
      .bytes({ method: 'POST', path: '/crawl', body: {}, onBytes: (n) => quiet.push(n) });
    expect(quiet).toEqual([]);
    const told: [number, number | undefined][] = [];
    const res = await makeClient()
      .api(scope())
      .bytes({
        method: 'POST',
        path: '/crawl',
        body: {},
        jsonProgress: true,
        onBytes: (n, total) => told.push([n, total]),
      });
    expect(res.data.toString()).toBe(body);
    expect(told.length).toBeGreaterThan(1);
    expect(told.at(-1)).toEqual([body.length, body.length]);
  });

  it('sends a multipart form with its boundary, the same bytes on every attempt', async () => {
    server.script(json(503, { error: { message: 'busy' } }), json(200, { id: 'file_1' }));
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('file', new Blob(['{"a":1}\n'], { type: 'application/jsonl' }), 'in.jsonl');
    const res = await makeClient()
      .api(scope())
      .request({ method: 'PUT', path: '/api/v1/files', form, schema: z.object({ id: z.string() }) });
    expect(res.data.id).toBe('file_1');
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(first?.body).toContain('name="purpose"');
    expect(first?.body).toContain('filename="in.jsonl"');
    expect(first?.body).toContain('{"a":1}');
    expect(second?.body).toBe(first?.body);
  });
});
