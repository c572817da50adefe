/**
 * What a client that defers tools reads first, the same over stdio and HTTP, in a 2025
 * `initialize` and a 2026-07-28 `server/discover`: the instructions that map requests to toolsets
 * and first calls; and the Logging capability, declared to 2025 clients only (2026-07-28
 * deprecates it and allows no log notification without a per-request level).
 */
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Client, type JSONRPCMessage, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';
import { TOOLSETS } from '../../../src/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { toolCatalog } from '../../../tools/index.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
type Era = 'modern' | 'legacy';
type Transport = StdioClientTransport | StreamableHTTPClientTransport;

/** Connects, and keeps every message the server sends (notifications included). */
async function connect(transport: Transport, era: Era) {
  const client = new Client({ name: `instructions-${era}`, version: '1' }, era === 'modern' ? MODERN : {});
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe(era);
  const seen: { method?: string }[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    seen.push(message as { method?: string });
    deliver?.(message);
  };
  return { client, seen };
}

let sandbox: Sandbox;
let http: { url: string; child: ChildProcess };
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  http = await startHttpServer([BIN, '--http', '--port', '0', '--base-url', sandbox.url], {
    env: { ...process.env, ORBIT_LOG_LEVEL: 'debug' },
  });
});
afterAll(async () => {
  if (http) await stopProcess(http.child);
  await sandbox?.close();
});

const ways: [string, () => Transport][] = [
  [
    'stdio',
    () =>
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--base-url', sandbox.url],
        env: { PATH: process.env.PATH ?? '', ORBIT_API_KEY: sandbox.demoKey, ORBIT_LOG_LEVEL: 'debug' },
        stderr: 'pipe',
      }),
  ],
  [
    'HTTP',
    () =>
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${sandbox.demoKey}` } },
      }),
  ],
];

/** A call that logs: the models catalog fails once with a 503, and the retry is logged at debug. */
async function loggedCall(client: Client) {
  sandbox.faults.add({ match: { path: '/api/v1/models' }, status: 503, times: 1 });
  const result = await client.callTool({ name: 'models_list', arguments: { kind: 'text' } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(sandbox.faults.list()).toEqual([]);
}

describe('instructions', () => {
  it('are the same over stdio and HTTP, to 2025 and 2026-07-28 clients, within 350 tokens', async () => {
    const texts: string[] = [];
    for (const [, transport] of ways) {
      for (const era of ['legacy', 'modern'] as const) {
        const { client } = await connect(transport(), era);
        texts.push(client.getInstructions() ?? '');
        await client.close();
      }
    }
    expect(new Set(texts).size).toBe(1);
    expect(encode(texts[0]!).length).toBeLessThanOrEqual(350);
  });

  it('name every toolset, every tool that starts a task, the first calls and the skills', async () => {
    const { client } = await connect(ways[0]![1](), 'modern');
    const text = client.getInstructions() ?? '';
    await client.close();
    for (const toolset of Object.keys(TOOLSETS)) expect(text).toContain(`${toolset}:`);
    const named = [...text.matchAll(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b/g)].map((match) => match[0]);
    const tools = new Set(toolCatalog.entries.map((entry) => entry.name));
    for (const name of named.filter((word) => !/_(id|s)$/.test(word))) expect(tools, name).toContain(name);
    expect(text).toMatch(/model id: models_list/);
    expect(text).toMatch(/spent or left: usage_get/);
    expect(text).toMatch(/timed out: job_status/);
    expect(text).toContain('skill://');
  });
});

describe('logging', () => {
  for (const [way, transport] of ways) {
    it(`is declared to a 2025 client over ${way}, who gets log notifications at the level it set`, async () => {
      const { client, seen } = await connect(transport(), 'legacy');
      try {
        expect(client.getServerCapabilities()?.logging).toBeDefined();
        await client.setLoggingLevel('debug');
        await loggedCall(client);
        expect(seen.some((message) => message.method === 'notifications/message')).toBe(true);
      } finally {
        await client.close();
      }
    });

    it(`is not declared to a 2026-07-28 client over ${way}, who gets no log notification`, async () => {
      const { client, seen } = await connect(transport(), 'modern');
      try {
        expect(client.getServerCapabilities()).toBeDefined();
        expect(client.getServerCapabilities()?.logging).toBeUndefined();
        await loggedCall(client);
        expect(seen.length).toBeGreaterThan(0);
        expect(seen.filter((message) => message.method === 'notifications/message')).toEqual([]);
      } finally {
        await client.close();
      }
    });
  }
});
