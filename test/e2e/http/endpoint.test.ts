/**
 * The Streamable HTTP endpoint in process: a dropped stream is resumed with Last-Event-ID and nothing
 * is lost, a session its client abandoned is closed after its idle time, a key the platform refused
 * is answered with HTTP 401 so the client can sign in again, and oversized bodies are refused.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type RunningHttp, serveHttp } from '../../../src/mcp/http/endpoint/serve.js';
import { createRuntime, type Runtime } from '../../../src/runtime.js';
import { SANDBOX_DEMO_KEY } from '../../../src/sandbox/constants.js';
import {
  initialize,
  MCP_POST_HEADERS,
  openSession,
  PROTOCOL_2025,
  postMcp,
  rpc,
  sendRaw,
} from '../../helpers/http.js';
import { registry } from '../../helpers/registry.js';

const IDLE_MS = 300;
let runtime: Runtime;
let http: RunningHttp;

beforeAll(async () => {
  // The in-process sandbox paces stream chunks (20 ms each): a chat call lasts a few hundred ms.
  runtime = await createRuntime(loadConfig({ logLevel: 'error' }, {}), { sandbox: true });
  http = await serveHttp(runtime, registry, {
    port: 0,
    host: '127.0.0.1',
    stateless: false,
    limits: { idleMs: IDLE_MS },
  });
});
afterAll(async () => {
  await http?.close();
  await runtime?.close();
});

const CHAT = {
  name: 'chat',
  arguments: { model: 'openai/gpt-sandbox', prompt: 'Tell me about resumable streams' },
};

// Raw requests, as a client sends them, where the test needs to see the HTTP exchange itself.
const PROTOCOL = PROTOCOL_2025;

function post(url: string, message: object, on: { sessionId?: string; key?: string } = {}) {
  return postMcp(url, message, {
    'mcp-protocol-version': PROTOCOL,
    ...(on.sessionId ? { 'mcp-session-id': on.sessionId } : {}),
    ...(on.key ? { authorization: `Bearer ${on.key}` } : {}),
  });
}

/** A GET stream on a session: the standalone one, or a resume after `lastEventId`. */
function getStream(url: string, sessionId: string, lastEventId?: string) {
  return fetch(url, {
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': PROTOCOL,
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
  });
}

/** A request with the Host header given (fetch does not let a caller set it): its status. */
async function withHost(url: string, host: string, method = 'GET', body?: string): Promise<number> {
  return (await sendRaw(url, { method, headers: { host, ...(body ? MCP_POST_HEADERS : {}) }, body })).status;
}

describe('the Host check (DNS rebinding)', () => {
  // What a Kubernetes or load-balancer probe sends: the pod's own address.
  const POD = '10.1.2.3:8787';

  it('answers /health and /ready whatever the Host', async () => {
    const origin = new URL(http.url).origin;
    expect(await withHost(`${origin}/health`, POD)).toBe(200);
    expect(await withHost(`${origin}/ready`, POD)).toBe(200);
  });

  it('still refuses the MCP endpoint with that Host', async () => {
    expect(await withHost(http.url, POD, 'POST', JSON.stringify(initialize()))).toBe(403);
  });
});

describe('resuming a dropped stream', () => {
  it('delivers the rest of the progress and the result to a client that reconnects with Last-Event-ID', async () => {
    const first = new Client({ name: 'flaky', version: '1' });
    const firstTransport = new StreamableHTTPClientTransport(new URL(http.url));
    await first.connect(firstTransport);
    const sessionId = firstTransport.sessionId!;

    let token: string | undefined;
    const before: Progress[] = [];
    let dropped!: () => void;
    const droppedOnce = new Promise<void>((resolve) => {
      dropped = resolve;
    });
    const lost = first
      .callTool(CHAT, undefined, {
        onresumptiontoken: (t) => {
          token = t;
        },
        onprogress: (p) => {
          before.push(p);
          dropped();
        },
      })
      .catch((error: unknown) => error);
    // The network goes away after the first progress notification.
    await droppedOnce;
    await firstTransport.close();
    expect(await lost).toBeInstanceOf(Error);
    expect(token).toBeTruthy();

    // A new connection to the same session, picking up after the last event it saw: the server
    // replays what the first connection missed, the rest of the progress and then the result.
    const replayed = await readUntilResult(sessionId, token!);
    const progress = replayed.filter((m) => m.method === 'notifications/progress');
    const response = replayed.at(-1)!;
    expect(progress.length).toBeGreaterThan(0);
    for (const m of progress) {
      expect(m.params!.progressToken).toBe(response.id);
      expect(m.params!.progress).toBeGreaterThan(before.at(-1)!.progress);
    }
    const out = response.result!.structuredContent as { text: string; finish_reason: string };
    expect(out.text).toContain('Tell me about resumable streams');
    expect(out.finish_reason).toBe('stop');
    for (const p of [...before, ...progress.map((m) => m.params as Progress)]) {
      expect(out.text.startsWith(p.message!)).toBe(true);
    }

    // The SDK client resumes the same way (and the events are still there for a second try).
    const second = new Client({ name: 'flaky', version: '1' });
    const secondTransport = new StreamableHTTPClientTransport(new URL(http.url), { sessionId });
    await second.connect(secondTransport);
    try {
      const result = await second.request({ method: 'tools/call', params: CHAT }, CallToolResultSchema, {
        resumptionToken: token,
      });
      expect(result.structuredContent).toEqual(out);
    } finally {
      await second.close();
    }
  });

  /** One POST of the session, its SSE events read whole (id and data of each, and the retry field). */
  async function events(sessionId: string, message: object) {
    const res = await post(http.url, message, { sessionId });
    const seen: { id?: string; data: string }[] = [];
    let retry: number | undefined;
    const parser = createParser({
      onEvent: (event) => seen.push({ id: event.id, data: event.data }),
      onRetry: (ms) => {
        retry = ms;
      },
    });
    parser.feed(await res.text());
    return { seen, retry };
  }

  it('lets a second listening stream take over from the first instead of answering 409', async () => {
    const { sessionId: id } = await openSession(http.url);
    const first = await getStream(http.url, id);
    expect(first.status).toBe(200);
    // Opened while the first is still open (the AI SDK opens two at once after initialize; a client
    // whose connection dropped unnoticed reconnects the same way).
    const second = await getStream(http.url, id);
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toContain('text/event-stream');
    // The first ends: its reader comes to the end of the stream.
    const reader = first.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read());
    await second.body!.cancel();
  });

  it('primes a stream (an empty event with an id, and a retry interval) only for a call that can outlive its connection', async () => {
    const client = new Client({ name: 'raw', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(http.url));
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    const primed = (seen: { data: string }[]) => seen[0]?.data === '';
    try {
      // A short request answers with its reply alone (the AI SDK logged an error for each empty event).
      const list = await events(sessionId, rpc('tools/list', undefined, 7));
      expect(list.seen).toHaveLength(1);
      expect(list.retry).toBeUndefined();
      expect(JSON.parse(list.seen[0]!.data)).toMatchObject({ id: 7, result: { tools: expect.any(Array) } });
      const status = await events(
        sessionId,
        rpc('tools/call', { name: 'auth_status', arguments: {}, _meta: { progressToken: 8 } }, 8),
      );
      expect(primed(status.seen)).toBe(false);
      // A tool that reports progress, called without asking for it, cannot outlive the connection either.
      const quiet = await events(sessionId, rpc('tools/call', CHAT, 9));
      expect(primed(quiet.seen)).toBe(false);
      expect(JSON.parse(quiet.seen.at(-1)!.data)).toMatchObject({ id: 9, result: expect.any(Object) });

      // The same call with a progress token is followed as it goes: primed, so it can be resumed.
      const followed = await events(
        sessionId,
        rpc('tools/call', { ...CHAT, _meta: { progressToken: 'p10' } }, 10),
      );
      expect(followed.seen[0]).toEqual({ id: expect.any(String), data: '' });
      expect(followed.retry).toBeGreaterThan(0);
      expect(followed.seen.at(-1)!.id).toBeTruthy();
      expect(JSON.parse(followed.seen.at(-1)!.data)).toMatchObject({ id: 10, result: expect.any(Object) });

      // A tool that waits on a platform job is primed even without a progress token.
      const job = await events(
        sessionId,
        rpc('tools/call', { name: 'job_status', arguments: { run_id: 'unknown-run' } }, 11),
      );
      expect(job.seen[0]).toEqual({ id: expect.any(String), data: '' });
      expect(job.retry).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});

interface Message {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown> & { progressToken?: unknown; progress?: number };
  result?: { structuredContent?: unknown };
}

/** GET with Last-Event-ID, as a reconnecting client sends it; reads SSE messages up to the first response. */
async function readUntilResult(sessionId: string, lastEventId: string): Promise<Message[]> {
  const res = await getStream(http.url, sessionId, lastEventId);
  expect(res.status).toBe(200);
  const messages: Message[] = [];
  const parser = createParser({
    onEvent: (event) => {
      if (event.data) messages.push(JSON.parse(event.data) as Message);
    },
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  while (!messages.some((m) => m.result)) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await reader.cancel();
  return messages;
}

describe('idle sessions', () => {
  const listTools = (sessionId: string) => post(http.url, rpc('tools/list', undefined, 2), { sessionId });

  it('closes a session its client abandoned, and keeps one whose client still listens', async () => {
    const abandonedId = (await openSession(http.url)).sessionId;
    expect((await listTools(abandonedId)).status).toBe(200);

    // The SDK client keeps a GET stream open on its session: that session is in use.
    const listening = new Client({ name: 'listening', version: '1' });
    await listening.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
      const gone = await listTools(abandonedId);
      expect(gone.status).toBe(404);
      expect((await listening.listTools()).tools.length).toBeGreaterThan(3);
    } finally {
      await listening.close();
    }
  });
});

describe('a key the platform refuses', () => {
  const chatCall = (id: number) => rpc('tools/call', CHAT, id);

  it('is answered with HTTP 401 invalid_token once the platform refused it, and the session never changes hands', async () => {
    const control = `${runtime.target.kind === 'sandbox' ? runtime.target.baseUrl : ''}/__sandbox/keys`;
    const { key } = (await (await fetch(control, { method: 'POST', body: '{}' })).json()) as { key: string };
    const client = new Client({ name: 'stale-key', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    try {
      // The key is revoked on the platform while the session is open.
      await fetch(`${control}/${key}`, { method: 'DELETE' });
      // The first call learns it from the platform, as a tool error that says what to do.
      const first = await client.callTool(CHAT);
      expect(first.isError).toBe(true);
      expect(JSON.stringify(first.content)).toMatch(/401/);
      // Then the endpoint itself says so, the way an OAuth client understands, and closes the session.
      const refused = await post(http.url, chatCall(2), { key, sessionId });
      expect(refused.status).toBe(401);
      const challenge = refused.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toContain('resource_metadata=');
      expect(await refused.json()).toMatchObject({
        error: { code: -32000, data: { reason: 'invalid_token' } },
      });
      expect((await post(http.url, chatCall(3), { key, sessionId })).status).toBe(404);
      // A new key cannot take the session over: it opens its own.
      expect((await post(http.url, chatCall(4), { key: SANDBOX_DEMO_KEY, sessionId })).status).toBe(404);
      // The refused key opens no new session either.
      const reopened = await postMcp(http.url, initialize(), { authorization: `Bearer ${key}` });
      expect(reopened.status).toBe(401);
    } finally {
      await client.close();
    }
  });
});

describe('request size', () => {
  const tooBig = () =>
    `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(17 * 1_048_576)}"}}`;

  it('refuses a body over 16 MB with 413 and says what to do instead', async () => {
    const res = await postMcp(http.url, tooBig());
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { message: expect.stringMatching(/16 MB.*URL/) } });
  });

  it('refuses it too when the size is not declared up front (chunked upload)', async () => {
    const bytes = new TextEncoder().encode(tooBig());
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 1_048_576)
          controller.enqueue(bytes.subarray(i, i + 1_048_576));
        controller.close();
      },
    });
    const res = await postMcp(http.url, body);
    expect(res.status).toBe(413);
  });

  it('still serves a normal request afterwards', async () => {
    const client = new Client({ name: 'after', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(3);
    } finally {
      await client.close();
    }
  });
});

describe('sessions per key', () => {
  let small: RunningHttp;
  beforeAll(async () => {
    small = await serveHttp(runtime, registry, {
      port: 0,
      host: '127.0.0.1',
      stateless: false,
      limits: { perKey: 2 },
    });
  });
  afterAll(async () => {
    await small?.close();
  });

  const open = () => openSession(small.url);
  const ping = async (sessionId: string) =>
    (await post(small.url, rpc('ping', undefined, 2), { sessionId })).status;
  /** A standalone GET stream, as a listening client keeps open. */
  const listen = async (sessionId: string) => {
    const res = await getStream(small.url, sessionId);
    expect(res.status).toBe(200);
    return res.body!.getReader();
  };

  it('lets the longest-idle session give way, and refuses when every session is in use', async () => {
    const first = await open();
    const second = await open();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await ping(first.sessionId)).toBe(200);
    // `second` is now the longest idle: a third session replaces it.
    const third = await open();
    expect(third.status).toBe(200);
    expect(await ping(second.sessionId)).toBe(404);
    expect(await ping(first.sessionId)).toBe(200);

    // With a stream open on each of the two, a new session is refused, and nothing is closed.
    const readers = [await listen(first.sessionId), await listen(third.sessionId)];
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(await ping(first.sessionId)).toBe(200);
    expect(await ping(third.sessionId)).toBe(200);
    for (const reader of readers) await reader.cancel();
  });
});
