/**
 * Request-rate limits of the HTTP endpoint (issue 34, item 4): token buckets per key and per client
 * address counted before a request's body is read, and per key for paid calls, in the store (so
 * every server on one store counts against the same buckets). A flood of one key is refused with
 * 429, Retry-After and an MCP error saying how long to wait, while another key is served.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type RunningHttp, serveHttp } from '../../../src/mcp/http/endpoint/serve.js';
import { createRuntime, type Runtime } from '../../../src/runtime.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { textOf } from '../../helpers/harness.js';
import { postMcp, rpc } from '../../helpers/http.js';
import { registry } from '../../helpers/registry.js';

let sandbox: Sandbox;
const runtimes: Runtime[] = [];
const servers: RunningHttp[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(runtimes.map((runtime) => runtime.close()));
  await sandbox?.close();
});

const newKey = (label: string) =>
  sandbox.state.createKey({ label, balance: 100, dailyRequestLimit: 1_000_000 });

/** Servers on one runtime (one store), with these limits. */
async function serve(rateLimit: string, count = 1, trustProxy?: number): Promise<RunningHttp[]> {
  const runtime = await createRuntime(
    loadConfig({ baseUrl: sandbox.url, logLevel: 'error', rateLimit, auditLog: 'off' }, {}),
  );
  runtimes.push(runtime);
  const started = await Promise.all(
    Array.from({ length: count }, () =>
      serveHttp(runtime, registry, { port: 0, host: '127.0.0.1', stateless: false, trustProxy }),
    ),
  );
  servers.push(...started);
  return started;
}

async function connect(url: string, key: string) {
  const client = new Client({ name: 'rate', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

/** A request that passes the limits and is then answered at once (400: no session named). */
function probe(url: string, key: string, forwardedFor?: string) {
  return postMcp(url, rpc('tools/list'), {
    authorization: `Bearer ${key}`,
    ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
  });
}

const statuses = async (requests: Promise<Response>[]) =>
  Promise.all(
    requests.map(async (request) => {
      const res = await request;
      await res.body?.cancel();
      return res.status;
    }),
  );

describe('request-rate limits over HTTP', () => {
  it('floods one key: it is refused with 429, Retry-After and an MCP error, while another key is served', async () => {
    const [server] = await serve('key=1/m:20,address=off,paid=off');
    const flooder = newKey('flooder');
    const other = newKey('other');
    const call = await connect(server!.url, flooder);
    const otherCall = await connect(server!.url, other);

    const flood = await Promise.allSettled(Array.from({ length: 40 }, () => call('auth_status')));
    const served = flood.filter((outcome) => outcome.status === 'fulfilled');
    const refused = flood.filter((outcome) => outcome.status === 'rejected');
    // Its connection took a few tokens of its 20; a token a minute comes back meanwhile at most.
    expect(served.length).toBeLessThanOrEqual(20);
    expect(refused.length).toBeGreaterThanOrEqual(20);
    for (const outcome of refused) {
      expect((outcome.reason as { code?: number }).code).toBe(429);
      expect(String(outcome.reason)).toContain('"reason":"rate_exceeded"');
    }

    // The other key, from the same address, is served as if nothing happened.
    const result = await otherCall('auth_status');
    expect(result.isError, textOf(result)).toBeFalsy();

    // What a refused client reads: the status, how long to wait, and the reason in the one shape.
    const res = await probe(server!.url, flooder);
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: expect.stringMatching(
          /^Too many requests with this key: this server takes at most 1 a minute \(bursts of 20\) from one key\. Wait \d+ s \(Retry-After\), then send again\.$/,
        ),
        data: { reason: 'rate_exceeded', scope: 'key', retry_after_ms: expect.any(Number) },
      },
    });
  });

  it('counts one address whatever keys it sends, and another address apart (behind a trusted proxy)', async () => {
    const [server] = await serve('key=off,address=1/m:5', 1, 1);
    const [one, two] = [newKey('address one'), newKey('address two')];
    const first = await statuses(
      [0, 1, 2, 3, 4].map((i) => probe(server!.url, i % 2 ? one : two, '203.0.113.9')),
    );
    expect(first).toEqual([400, 400, 400, 400, 400]);
    expect(
      await statuses([probe(server!.url, one, '203.0.113.9'), probe(server!.url, two, '203.0.113.9')]),
    ).toEqual([429, 429]);
    expect(await statuses([probe(server!.url, one, '198.51.100.4')])).toEqual([400]);
  });

  it('counts a key once across servers that share a store', async () => {
    const [a, b] = await serve('key=1/m:6,address=off', 2);
    const key = newKey('two servers');
    const seen = await statuses(Array.from({ length: 12 }, (_, i) => probe((i % 2 ? a : b)!.url, key)));
    expect(seen.filter((status) => status === 400)).toHaveLength(6);
    expect(seen.filter((status) => status === 429)).toHaveLength(6);
  });

  it('refuses a paid call past the paid limit as a tool error saying how long to wait; free calls go on', async () => {
    const [server] = await serve('paid=1/m:2');
    const key = newKey('paid');
    const call = await connect(server!.url, key);
    const search = { query: 'token buckets' };
    for (let i = 0; i < 2; i++) {
      const result = await call('web_search', search);
      expect(result.isError, textOf(result)).toBeFalsy();
    }
    sandbox.clearRequests();
    const refused = await call('web_search', search);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^Error \(rate_exceeded\): Too many paid calls with this key: this server takes at most 1 a minute \(bursts of 2\) from one key\.\nFix: Nothing was sent and nothing was charged\. Wait \d+ s, then call again\.\nRetry after: \d+ s$/,
    );
    // Nothing reached the platform for it.
    expect(sandbox.requests.filter((request) => request.path.includes('search'))).toHaveLength(0);
    const free = await call('auth_status');
    expect(free.isError, textOf(free)).toBeFalsy();
  });
});
