/**
 * Smoke tests of the built binary (`npm test` builds first): stdio, and Streamable HTTP in
 * stateful and stateless modes, each with a real SDK client.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer } from '../../../scripts/lib/http-server.js';
import { initialize, postMcp, rpc } from '../../helpers/http.js';
import { freePort } from '../../scale/lib/redis.js';

const BIN = 'dist/orbit-mcp.js';

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error('dist/orbit-mcp.js is missing: run `npm run build` (npm test does it).');
});

describe('the built binary over stdio', () => {
  it('serves tools/list and a chat call on the sandbox, with nothing but protocol on stdout', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--sandbox'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'smoke', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('chat');
      const result = await client.callTool({
        name: 'chat',
        arguments: { model: 'openai/gpt-sandbox', prompt: 'ping' },
      });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { text: string }).text).toContain('ping');
    } finally {
      await client.close();
    }
  });

  it('checks a confirmation answer against its form without Ajv in the bundle', async () => {
    // The bin swaps the SDK's default validator (Ajv) for the SDK's lighter one (scripts/build.ts).
    const bundled = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.js'),
    );
    expect(bundled.filter((f) => readFileSync(join('dist', f), 'utf8').includes('ajv-formats'))).toEqual([]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--sandbox', '--toolsets', 'keys'],
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'smoke', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    let answer: Record<string, unknown> = { confirm: 'yes' };
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: answer }));
    await client.connect(transport);
    try {
      const listed = await client.callTool({ name: 'api_keys_read', arguments: { operation: 'list' } });
      // The sandbox's own demo key: this process's sandbox goes with it.
      const { id } = (listed.structuredContent as { data: { id: string }[] }).data[0]!;
      const revoke = () =>
        client.callTool({ name: 'api_keys_write', arguments: { operation: 'revoke', id } });
      const odd = await revoke();
      expect(odd.isError).toBe(true);
      expect(JSON.stringify(odd.content)).toMatch(/does not match requested schema/);
      answer = { confirm: true };
      expect((await revoke()).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('stops at start-up with a message naming a bad setting', async () => {
    const child = spawn(process.execPath, [BIN], { env: { ...process.env, ORBIT_TIMEOUT_MS: 'soon' } });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('ORBIT_TIMEOUT_MS');
  });
});

const startHttp = (args: string[]) => startHttpServer([BIN, '--http', '--port', '0', ...args]);

describe('the built binary over Streamable HTTP', () => {
  let stateful: { url: string; child: ChildProcess };
  let stateless: { url: string; child: ChildProcess };
  beforeAll(async () => {
    [stateful, stateless] = await Promise.all([
      startHttp(['--sandbox']),
      startHttp(['--sandbox', '--stateless']),
    ]);
  });
  afterAll(() => {
    stateful?.child.kill();
    stateless?.child.kill();
  });

  for (const mode of ['stateful', 'stateless'] as const) {
    it(`answers tools/list and chat in ${mode} mode`, async () => {
      const server = mode === 'stateful' ? stateful : stateless;
      const client = new Client({ name: 'smoke', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(server.url));
      await client.connect(transport);
      try {
        if (mode === 'stateful') expect(transport.sessionId).toBeTruthy();
        else expect(transport.sessionId).toBeUndefined();
        const { tools } = await client.listTools();
        expect(tools.length).toBeGreaterThan(3);
        const result = await client.callTool({
          name: 'chat',
          arguments: { model: 'openai/gpt-sandbox', prompt: 'ping' },
        });
        expect((result.structuredContent as { text: string }).text).toContain('ping');
      } finally {
        await client.close();
      }
    });
  }

  it('answers the health route', async () => {
    const res = await fetch(stateful.url.replace('/mcp', '/health'));
    expect(await res.json()).toMatchObject({ status: 'ok', target: 'sandbox' });
  });

  it('refuses a foreign Origin and Host (DNS rebinding)', async () => {
    const evil = await postMcp(stateful.url, initialize('2025-06-18', 'x'), {
      origin: 'http://evil.example',
    });
    expect(evil.status).toBe(403);
  });

  it('answers a session presented with another key as if it did not exist', async () => {
    const client = new Client({ name: 'smoke', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(stateful.url), {
      requestInit: { headers: { authorization: 'Bearer sk-orbit-sandbox-demo' } },
    });
    await client.connect(transport);
    try {
      const res = await postMcp(stateful.url, rpc('tools/list', undefined, 9), {
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': '2025-06-18',
        authorization: 'Bearer sk-someone-else-entirely',
      });
      expect(res.status).toBe(404);
    } finally {
      await client.close();
    }
  });
});

describe('the built binary with a store it cannot reach', () => {
  for (const extra of [[], ['--sandbox']]) {
    it(`exits non-zero at start-up with a message naming the store${extra.length ? ' (sandbox)' : ''}`, async () => {
      const url = `redis://127.0.0.1:${await freePort()}`;
      const child = spawn(process.execPath, [BIN, '--http', '--port', '0', ...extra], {
        env: { ...process.env, ORBIT_STORE_URL: url },
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      // Without the fix ioredis reconnects for ever and the process never exits.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      clearTimeout(timer);
      expect(stderr).toContain(`Cannot reach the store at ${url}`);
      expect(code).toBe(1);
    });
  }
});

describe('the HTTP endpoint against a platform other than the in-process sandbox', () => {
  it('refuses an anonymous request with 401 and a WWW-Authenticate header', async () => {
    const server = await startHttp(['--base-url', 'http://127.0.0.1:9']);
    try {
      const res = await postMcp(server.url, rpc('tools/list'));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    } finally {
      server.child.kill();
    }
  });
});
