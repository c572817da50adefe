import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StaticCredentials } from '../../../src/credentials.js';
import { StreamIncompleteError } from '../../../src/errors.js';
import { createLogger } from '../../../src/log.js';
import { type CallScope, HttpClient } from '../../../src/upstream/client.js';
import { type Handler, json, type ScriptedServer, startServer } from './server.js';

let server: ScriptedServer;
let client: HttpClient;

beforeAll(async () => {
  server = await startServer();
  client = new HttpClient({
    baseUrl: server.baseUrl,
    timeoutMs: 5_000,
    userAgent: 't',
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
});
afterEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const scope = (): CallScope => ({
  credentials: new StaticCredentials([{ kind: 'api_key', value: 'sk-test-abcdefgh1234', source: 'env' }]),
  signal: new AbortController().signal,
  log: createLogger('silent'),
});
const api = () => client.api(scope());
const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** Sends `parts` as separate writes, a little apart, so the client reads them as separate chunks. */
function chunked(parts: string[], headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
    let i = 0;
    const next = () => {
      if (i === parts.length) return res.end();
      res.write(parts[i++]);
      setTimeout(next, 5);
    };
    next();
  };
}

const BODY = { model: 'TEE/x', messages: [{ role: 'user', content: 'héllo ✓ "quoted" \u2028' }] };
const Reply = z.object({ id: z.string(), text: z.string() });

describe('capture of the exact bytes', () => {
  it('keeps the request bytes sent and the reply bytes received, byte for byte', async () => {
    // Spacing and key order a re-serialization would lose, and multi-byte characters.
    const raw = '{ "text" : "réponse ✓",\n  "id":"r1" }\n';
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_c1' });
      res.end(raw);
    });
    const res = await api().request({ method: 'POST', path: '/x', body: BODY, schema: Reply, capture: true });
    expect(res.data).toEqual({ id: 'r1', text: 'réponse ✓' });
    expect(res.captured?.complete).toBe(true);
    expect(res.captured?.response.equals(Buffer.from(raw, 'utf8'))).toBe(true);
    expect(res.captured?.request.toString('utf8')).toBe(server.requests[0]?.body);
    expect(sha(res.captured?.request ?? '')).toBe(sha(server.requests[0]?.body ?? 'x'));
  });

  it('keeps nothing when capture is off (the default)', async () => {
    server.script(json(200, { id: 'r2', text: 'ok' }));
    const res = await api().request({ method: 'POST', path: '/x', body: BODY, schema: Reply });
    expect(res.captured).toBeUndefined();
    const streamed = await api().stream({ method: 'POST', path: '/s', body: BODY });
    expect(streamed.captured).toBeUndefined();
  });

  it('keeps the bytes of the attempt that succeeded, the same bytes every retry sent', async () => {
    server.script(json(503, { error: { message: 'busy' } }), json(200, { id: 'r3', text: 'ok' }));
    const res = await api().request({
      method: 'POST',
      path: '/x',
      body: BODY,
      schema: Reply,
      idempotencyKey: 'k1',
      capture: true,
    });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.body).toBe(server.requests[1]?.body);
    expect(res.captured?.request.toString('utf8')).toBe(server.requests[1]?.body);
    expect(res.captured?.response.toString('utf8')).toBe(JSON.stringify({ id: 'r3', text: 'ok' }));
  });

  it('keeps an empty request for a call without a body', async () => {
    server.script(json(200, { id: 'r4', text: 'ok' }));
    const res = await api().request({ method: 'GET', path: '/x', schema: Reply, capture: true });
    expect(res.captured?.request.length).toBe(0);
  });

  it('keeps every chunk of a stream as received, including bytes after the terminal marker', async () => {
    const parts = [
      'data: {"id":"c1","choices":[{"delta":{"content":"Hé"}}]}\n\n',
      'data: {"id":"c1","choices":[{"delta":{"content":"llo ✓"}}]}\n',
      '\ndata: [DONE]\n\n',
      ': trailing comment\n\n',
    ];
    server.script(chunked(parts, { 'x-request-id': 'req_s1' }));
    const res = await api().stream({ method: 'POST', path: '/s', body: BODY, capture: true });
    const events: string[] = [];
    for await (const batch of res.batches) for (const event of batch.events) events.push(event.data);
    expect(events).toHaveLength(2);
    const captured = await res.captured;
    expect(captured?.complete).toBe(true);
    expect(captured?.response.toString('utf8')).toBe(parts.join(''));
    expect(captured?.request.toString('utf8')).toBe(server.requests[0]?.body);
  });

  it('says a stream cut before its end was captured incomplete, and still fails the read', async () => {
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"delta":{"content":"par"}}]}\n\n');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const res = await api().stream({ method: 'POST', path: '/s', body: BODY, capture: true });
    const read = async () => {
      for await (const _batch of res.batches) {
      }
    };
    await expect(read()).rejects.toBeInstanceOf(StreamIncompleteError);
    const captured = await res.captured;
    expect(captured?.complete).toBe(false);
    expect(captured?.response.toString('utf8')).toBe('data: {"choices":[{"delta":{"content":"par"}}]}\n\n');
  });

  it('settles the capture when the reader stops early', async () => {
    server.script(chunked(['data: {"a":1}\n\n', 'data: {"a":2}\n\n', 'data: [DONE]\n\n']));
    const res = await api().stream({ method: 'POST', path: '/s', body: BODY, capture: true });
    for await (const _batch of res.batches) break;
    const captured = await res.captured;
    expect(captured?.complete).toBe(false);
    expect(captured?.response.toString('utf8')).toBe('data: {"a":1}\n\n');
  });
});
