/**
 * Behind a proxy the operator names the public host (`--allowed-hosts`): a browser-based client on
 * that host sends both `Host` and `Origin` with the name, and both are accepted; other sites are not.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type RunningHttp, serveHttp } from '../../src/mcp/http/endpoint/serve.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { registry } from '../helpers/registry.js';

let runtime: Runtime;
let http: RunningHttp;

beforeAll(async () => {
  runtime = await createRuntime(loadConfig({ logLevel: 'error' }, {}), { sandbox: true });
  http = await serveHttp(runtime, registry, {
    port: 0,
    host: '127.0.0.1',
    stateless: false,
    allowedHosts: ['mcp.example.com', 'proxy.example.com:8443'],
  });
});
afterAll(async () => {
  await http?.close();
  await runtime?.close();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
});

/** POSTs initialize with the Host and Origin given (fetch does not let a caller set Host). */
function initializeWith(headers: { host: string; origin?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      http.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end(INITIALIZE);
  });
}

describe('--allowed-hosts and the Origin check', () => {
  it.each([
    ['mcp.example.com', 'https://mcp.example.com'],
    ['mcp.example.com', 'http://mcp.example.com'],
    ['proxy.example.com:8443', 'https://proxy.example.com:8443'],
  ])('accepts Host %s with Origin %s', async (host, origin) => {
    expect(await initializeWith({ host, origin })).toBe(200);
  });

  it.each([
    ['mcp.example.com', 'https://evil.example'],
    ['mcp.example.com', 'https://mcp.example.com.evil.example'],
    ['mcp.example.com', 'https://proxy.example.com'],
    ['mcp.example.com', 'https://mcp.example.com:9999'],
  ])('refuses Host %s with a foreign Origin %s', async (host, origin) => {
    expect(await initializeWith({ host, origin })).toBe(403);
  });
});
