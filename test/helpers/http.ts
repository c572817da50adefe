/**
 * Raw MCP over HTTP, for the tests that need to see the exchange itself (a status, a header, an
 * event stream, a refusal's body): one JSON-RPC message sent as a client sends it. A test that only
 * needs what a tool answers drives a real SDK client instead (test/README.md).
 */
import { type IncomingHttpHeaders, request } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { Out } from './harness.js';

/** The 2025 revision raw requests speak unless a test names another. */
export const PROTOCOL_2025 = '2025-11-25';

/** What every MCP POST carries: a JSON body, and both forms of answer accepted. */
export const MCP_POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
} as const;

type Fields = Record<string, string>;

/** A JSON-RPC request. */
export const rpc = (method: string, params?: object, id: number | string = 1) => ({
  jsonrpc: '2.0' as const,
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

/** A JSON-RPC notification (no id, no answer). */
const notification = (method: string, params?: object) => ({
  jsonrpc: '2.0' as const,
  method,
  ...(params === undefined ? {} : { params }),
});

/** `initialize` as a 2025 client sends it. */
export const initialize = (protocolVersion = PROTOCOL_2025, clientName = 'raw', id: number | string = 1) =>
  rpc(
    'initialize',
    { protocolVersion, capabilities: {}, clientInfo: { name: clientName, version: '1' } },
    id,
  );

/**
 * POSTs one message to an MCP endpoint with a client's headers plus `headers`. An object is sent as
 * JSON; a string, bytes or a stream as given (a stream as a chunked upload).
 */
export function postMcp(
  url: string | URL,
  body: object | string | Uint8Array | ReadableStream<Uint8Array>,
  headers: Fields = {},
): Promise<Response> {
  const raw = typeof body === 'string' || body instanceof Uint8Array || body instanceof ReadableStream;
  return fetch(url, {
    method: 'POST',
    headers: { ...MCP_POST_HEADERS, ...headers },
    body: raw ? body : JSON.stringify(body),
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** The JSON-RPC message an answer carries: its JSON body, or the last message of its event stream. */
export async function messageOf(res: Response): Promise<Out> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
  let last = '';
  const parser = createParser({
    onEvent: (event) => {
      if (event.data) last = event.data;
    },
  });
  parser.feed(text);
  return JSON.parse(last);
}

/**
 * Opens a 2025 session by hand: the status, the session id, and the headers that name the session
 * on later requests. `initialized` also sends the client's `notifications/initialized`.
 */
export async function openSession(
  url: string | URL,
  options: { protocolVersion?: string; headers?: Fields; initialized?: boolean; id?: number } = {},
): Promise<{ status: number; sessionId: string; headers: Fields }> {
  const protocolVersion = options.protocolVersion ?? PROTOCOL_2025;
  const res = await postMcp(url, initialize(protocolVersion, 'raw', options.id), {
    'mcp-protocol-version': protocolVersion,
    ...options.headers,
  });
  await res.body?.cancel();
  const sessionId = res.headers.get('mcp-session-id') ?? '';
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  if (options.initialized) {
    const sent = await postMcp(url, notification('notifications/initialized'), {
      ...options.headers,
      ...headers,
    });
    await sent.body?.cancel();
  }
  return { status: res.status, sessionId, headers };
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * A request through node:http, which lets a test set `Host` (fetch does not): the answer read
 * whole. A POST by default, with no header but those given.
 */
export function sendRaw(
  url: string | URL,
  init: { method?: string; headers?: Fields; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'POST', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    // An oversized upload is cut once the answer is sent.
    req.once('error', (error) => (String(error).includes('EPIPE') ? undefined : reject(error)));
    req.end(init.body);
  });
}
