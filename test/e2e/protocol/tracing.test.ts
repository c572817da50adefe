/**
 * OpenTelemetry traces, end to end: the built server over stdio (a 2026-07-28 client putting its
 * context in `_meta.traceparent`) and over HTTP (a 2025 client sending the `traceparent` header),
 * a separate sandbox that records the headers it receives, and a local OTLP/HTTP receiver that
 * decodes what the exporter sends. One chat call must show the client's parent, the MCP span and
 * the platform span, and the platform must have received that span's context.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const CHAT = { model: 'openai/gpt-sandbox', prompt: 'Trace me' };

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

let receiver: Server;
let endpoint: string;
const exported: ExportedSpan[] = [];
let sandbox: Sandbox;
let key: string;

beforeAll(async () => {
  // An OTLP/HTTP collector in miniature: it keeps every span of every JSON export.
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const payload = JSON.parse(body) as {
          resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
        };
        for (const resource of payload.resourceSpans)
          for (const scope of resource.scopeSpans) exported.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  sandbox = await startSandbox({ quiet: true });
  key = sandbox.state.createKey({ label: 'traced', balance: 5 });
});
afterAll(async () => {
  await sandbox?.close();
  await new Promise((done) => receiver?.close(done));
});

const env = () => ({
  PATH: process.env.PATH ?? '',
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_SERVICE_NAME: 'orbit-mcp-test',
});
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const attribute = (span: ExportedSpan, name: string) => {
  const value = span.attributes.find((entry) => entry.key === name)?.value;
  return value && Object.values(value)[0];
};

/** The MCP span and the platform span of one traced chat, checked against the client's parent. */
function expectTrace(traceId: string, parentId: string) {
  const mcp = exported.find((span) => span.traceId === traceId && span.name === 'tools/call chat');
  expect(mcp, JSON.stringify(exported.map((span) => span.name))).toBeDefined();
  expect(mcp!.parentSpanId).toBe(parentId);
  expect(mcp!.kind).toBe(2); // SERVER
  expect(attribute(mcp!, 'mcp.method.name')).toBe('tools/call');
  expect(attribute(mcp!, 'gen_ai.tool.name')).toBe('chat');
  expect(attribute(mcp!, 'gen_ai.operation.name')).toBe('execute_tool');

  const platform = exported.filter((span) => span.parentSpanId === mcp!.spanId);
  expect(platform.length).toBeGreaterThan(0);
  const post = platform.find((span) => attribute(span, 'http.request.method') === 'POST')!;
  expect(post.kind).toBe(3); // CLIENT
  expect(post.traceId).toBe(traceId);
  expect(attribute(post, 'http.response.status_code')).toBe(200);
  expect(String(attribute(post, 'url.template'))).toMatch(/^\/api\//);

  // The platform received the platform span's context, and the span names the platform's request id.
  const received = sandbox.requests.find(
    (request) => request.headers.traceparent === `00-${traceId}-${post.spanId}-01`,
  );
  expect(received, 'the platform saw the span as traceparent').toBeDefined();
  expect(attribute(post, 'orbit.request_id')).toBe(received!.id);
  // Never a key or a body in a span.
  expect(JSON.stringify(exported)).not.toContain(key);
  expect(JSON.stringify(exported)).not.toContain('Trace me');
}

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('traces', () => {
  it('follow a 2026-07-28 chat over stdio from _meta.traceparent to the platform, flushed at exit', async () => {
    const traceId = hex(16);
    const parentId = hex(8);
    const client = new Client(
      { name: 'traced', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--base-url', sandbox.url, '--log-level', 'error'],
        env: { ...env(), ORBIT_API_KEY: key },
        stderr: 'pipe',
      }),
    );
    const result = await client.callTool({
      name: 'chat',
      arguments: CHAT,
      _meta: { traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    // Closing stdin ends the process, which exports its spans on the way out.
    await client.close();
    await until(() => exported.some((span) => span.traceId === traceId));
    expectTrace(traceId, parentId);
  });

  it('follow a 2025 chat over HTTP from the traceparent header to the platform, with the audit fields', async () => {
    const traceId = hex(16);
    const parentId = hex(8);
    const folder = await mkdtemp(join(tmpdir(), 'orbit-trace-audit-'));
    const auditLog = join(folder, 'audit.jsonl');
    const server: { url: string; child: ChildProcess } = await startHttpServer(
      [
        BIN,
        '--http',
        '--port',
        '0',
        '--base-url',
        sandbox.url,
        '--log-level',
        'error',
        '--audit-log',
        auditLog,
      ],
      { env: env() },
    );
    try {
      const client = new LegacyClient({ name: 'traced', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: {
            headers: { authorization: `Bearer ${key}`, traceparent: `00-${traceId}-${parentId}-01` },
          },
        }),
      );
      const result = await client.callTool({ name: 'chat', arguments: CHAT });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      await client.close();
    } finally {
      await stopProcess(server.child);
    }
    await until(() => exported.some((span) => span.traceId === traceId));
    expectTrace(traceId, parentId);

    // The call's audit line and its span carry the same fields, each as `orbit.<field>`.
    const [line, ...more] = (await readFile(auditLog, 'utf8'))
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    await rm(folder, { recursive: true, force: true });
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      event: 'tool_call',
      tool: 'chat',
      outcome: 'ok',
      cost_usd: expect.any(Number),
    });
    const mcp = exported.find((span) => span.traceId === traceId && span.name === 'tools/call chat')!;
    const { time: _time, event: _event, request_ids: ids, ...fields } = line;
    for (const [field, value] of Object.entries(fields)) expect(attribute(mcp, `orbit.${field}`)).toBe(value);
    const listed = attribute(mcp, 'orbit.request_ids') as { values: { stringValue: string }[] };
    expect(listed.values.map((value) => value.stringValue)).toEqual(ids);
  });
});
