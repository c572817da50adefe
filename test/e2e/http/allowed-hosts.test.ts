/**
 * Behind a proxy the operator names the public host (`--allowed-hosts`): a browser-based client on
 * that host sends both `Host` and `Origin` with the name, and both are accepted; other sites are not.
 * The same list is read from `ORBIT_ALLOWED_HOSTS`, as a Kubernetes ConfigMap gives it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type RunningHttp, serveHttp } from '../../../src/mcp/http/endpoint/serve.js';
import { createRuntime, type Runtime } from '../../../src/runtime.js';
import { initialize, MCP_POST_HEADERS, PROTOCOL_2025, sendRaw } from '../../helpers/http.js';
import { registry } from '../../helpers/registry.js';

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

/** POSTs initialize with the Host and Origin given (fetch does not let a caller set Host). */
async function initializeWith(headers: { host: string; origin?: string }, url = http.url): Promise<number> {
  const body = JSON.stringify(initialize(PROTOCOL_2025, 'browser'));
  return (await sendRaw(url, { headers: { ...MCP_POST_HEADERS, ...headers }, body })).status;
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

/** The built server with this environment: its MCP URL once it listens, or its exit code and stderr. */
function startBinary(env: Record<string, string>): {
  child: ChildProcess;
  started: Promise<{ url: string } | { code: number | null; stderr: string }>;
} {
  const child = spawn(process.execPath, ['dist/orbit-mcp.js', '--http', '--sandbox', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ORBIT_BASE_URL: '', ORBIT_STORE_URL: '', ORBIT_ALLOWED_HOSTS: '', ...env },
  });
  let stderr = '';
  const started = new Promise<{ url: string } | { code: number | null; stderr: string }>((resolve) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /listening at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve({ url });
    });
    child.once('exit', (code) => resolve({ code, stderr }));
  });
  return { child, started };
}

describe('ORBIT_ALLOWED_HOSTS', () => {
  it('accepts the names it lists (a Service name, a host:port) as --allowed-hosts does, and no other', async () => {
    const { child, started } = startBinary({ ORBIT_ALLOWED_HOSTS: 'orbit-mcp, proxy.example.com:8443' });
    try {
      const result = await started;
      if (!('url' in result)) throw new Error(`the server did not start: ${result.stderr}`);
      expect(await initializeWith({ host: 'orbit-mcp' }, result.url)).toBe(200);
      expect(await initializeWith({ host: 'proxy.example.com:8443' }, result.url)).toBe(200);
      expect(await initializeWith({ host: 'orbit-mcp.evil.example' }, result.url)).toBe(403);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses at start a name given as a URL, saying how to write it', async () => {
    const { started } = startBinary({ ORBIT_ALLOWED_HOSTS: 'https://mcp.example.com' });
    const result = await started;
    expect(result).toMatchObject({ code: 2 });
    expect((result as { stderr: string }).stderr).toContain(
      'ORBIT_ALLOWED_HOSTS: name hosts as mcp.example.com or mcp.example.com:8443 (no scheme, no path)',
    );
  });
});
