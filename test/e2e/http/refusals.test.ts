/**
 * Every refusal of the HTTP endpoint has one body shape (JSON-RPC, `data.reason` naming why), written
 * by one `refuse()`: a client reads a 403, a 404 or a 413 the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type RunningHttp, serveHttp } from '../../../src/mcp/http/endpoint/serve.js';
import { createRuntime, type Runtime } from '../../../src/runtime.js';
import { MCP_POST_HEADERS, PROTOCOL_2025, rpc, sendRaw } from '../../helpers/http.js';
import { registry } from '../../helpers/registry.js';

let runtime: Runtime;
let http: RunningHttp;

beforeAll(async () => {
  runtime = await createRuntime(loadConfig({ logLevel: 'error' }, {}), { sandbox: true });
  http = await serveHttp(runtime, registry, { port: 0, host: '127.0.0.1', stateless: false });
});
afterAll(async () => {
  await http?.close();
  await runtime?.close();
});

const HEADERS = { ...MCP_POST_HEADERS, 'mcp-protocol-version': PROTOCOL_2025 };
const CALL = JSON.stringify(rpc('tools/list'));

/** A raw request (node:http, so Host can be set) to a path of the endpoint, its answer parsed. */
async function send(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
) {
  const answer = await sendRaw(new URL(path, http.url), init);
  return { ...answer, type: answer.headers['content-type'], body: JSON.parse(answer.text) as unknown };
}

const shape = (code: number, reason: string) => ({
  jsonrpc: '2.0',
  id: null,
  error: { code, message: expect.any(String), data: { reason } },
});

describe('HTTP refusals', () => {
  it.each([
    [
      'a foreign Host',
      '/mcp',
      { headers: { ...HEADERS, host: 'evil.example' }, body: CALL },
      403,
      'forbidden',
    ],
    [
      'a foreign Origin',
      '/mcp',
      { headers: { ...HEADERS, origin: 'http://evil.example' }, body: CALL },
      403,
      'forbidden',
    ],
    ['another path', '/elsewhere', { headers: HEADERS, body: CALL }, 404, 'not_found'],
    ['unknown toolsets', '/mcp?toolsets=nope', { headers: HEADERS, body: CALL }, 400, 'invalid_toolsets'],
    ['a body that is not JSON', '/mcp', { headers: HEADERS, body: '{not json' }, 400, 'parse_error'],
    ['a 2025 call before initialize', '/mcp', { headers: HEADERS, body: CALL }, 400, 'bad_request'],
    [
      'an unknown session',
      '/mcp',
      { headers: { ...HEADERS, 'mcp-session-id': 'no-such-session' }, body: CALL },
      404,
      'session_not_found',
    ],
  ] as const)('answers %s in the one JSON-RPC shape', async (_what, path, init, status, reason) => {
    const answer = await send(path, init);
    expect(answer.status).toBe(status);
    expect(answer.type).toBe('application/json');
    const code = reason === 'parse_error' ? -32700 : reason === 'session_not_found' ? -32001 : -32000;
    expect(answer.body).toEqual(shape(code, reason));
  });

  it('answers a GET without a session with 405 and the methods it allows (the transport rules: no stream here, go on without)', async () => {
    const answer = await send('/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, POST, DELETE');
    expect(answer.body).toEqual(shape(-32000, 'method_not_allowed'));
  });

  it('answers a DELETE without a session as before: send initialize first', async () => {
    const answer = await send('/mcp', { method: 'DELETE', headers: HEADERS });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(shape(-32000, 'bad_request'));
  });

  it('answers an oversized body with 413 in the same shape, and closes the connection', async () => {
    const answer = await send('/mcp', { headers: HEADERS, body: Buffer.alloc(17 * 1_048_576, 0x20) });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toEqual(shape(-32000, 'too_large'));
  });
});
