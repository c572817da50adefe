/**
 * The per-address limits behind a load balancer: X-Forwarded-For names the client only with
 * `--trust-proxy`, and then only the entries the trusted proxies wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type RunningHttp, serveHttp } from '../../../src/mcp/http/endpoint/serve.js';
import { createRuntime, type Runtime } from '../../../src/runtime.js';
import { initialize, PROTOCOL_2025, postMcp } from '../../helpers/http.js';
import { registry } from '../../helpers/registry.js';

let runtime: Runtime;
const servers: RunningHttp[] = [];

beforeAll(async () => {
  runtime = await createRuntime(loadConfig({ logLevel: 'error' }, {}), { sandbox: true });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await runtime?.close();
});

/** A server that lets one client address hold a single session. */
async function serve(trustProxy?: number): Promise<RunningHttp> {
  const http = await serveHttp(runtime, registry, {
    port: 0,
    host: '127.0.0.1',
    stateless: false,
    limits: { perAddress: 1 },
    trustProxy,
  });
  servers.push(http);
  return http;
}

/** Opens a session (anonymous: the sandbox's demo key) as a client behind the given forwarding. */
async function open(url: string, forwardedFor: string): Promise<number> {
  const res = await postMcp(url, initialize(PROTOCOL_2025, 'lb'), { 'x-forwarded-for': forwardedFor });
  await res.body?.cancel();
  return res.status;
}

describe('client addresses behind a proxy', () => {
  it('ignores X-Forwarded-For by default, so a client cannot escape a limit by rotating it', async () => {
    const { url } = await serve();
    expect(await open(url, '203.0.113.1')).toBe(200);
    expect(await open(url, '203.0.113.2')).toBe(429);
  });

  it('with --trust-proxy 1 gives each forwarded address its own limits', async () => {
    const { url } = await serve(1);
    expect(await open(url, '203.0.113.1')).toBe(200);
    expect(await open(url, '203.0.113.2')).toBe(200);
    expect(await open(url, '203.0.113.1')).toBe(429);
    // What the client wrote itself, left of what the proxy appended, changes nothing.
    expect(await open(url, '198.51.100.7, 203.0.113.2')).toBe(429);
  });
});
