/**
 * The 2026-07-28 details, against the built server: tools/list in one order whatever the era or
 * transport, cache hints on the list results of 2026-07-28 (and nothing new on 2025 results), and
 * the Mcp-Method / Mcp-Name headers checked against the body in both eras.
 */
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../scripts/lib/http-server.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

let server: { url: string; child: ChildProcess };
beforeAll(async () => {
  server = await startHttpServer([BIN, '--http', '--sandbox', '--port', '0', '--log-level', 'error']);
});
afterAll(async () => {
  if (server) await stopProcess(server.child);
});

async function post(body: object, headers: Record<string, string>) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  // A 2025 session answers as an event stream: the message is the last data line.
  const data = text.includes('data: {') ? text.slice(text.lastIndexOf('data: {') + 6).trim() : text;
  return {
    status: response.status,
    message: JSON.parse(data),
    session: response.headers.get('mcp-session-id'),
  };
}

/** A 2025 session opened by hand: its id. */
async function legacySession() {
  const opened = await post(
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
    { 'mcp-protocol-version': LEGACY },
  );
  const headers = { 'mcp-session-id': opened.session!, 'mcp-protocol-version': LEGACY };
  await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return headers;
}

const modernHeaders = (method: string, name?: string) => ({
  'mcp-protocol-version': MODERN,
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});
const names = (result: { tools: { name: string }[] }) => result.tools.map((tool) => tool.name);
const sorted = (list: string[]) => [...list].sort();

describe('tools/list', () => {
  it('lists tools by name, the same over HTTP in both eras and over stdio', async () => {
    const modern = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } },
      modernHeaders('tools/list'),
    );
    const legacy = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, await legacySession());
    const listed = names(modern.message.result);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed).toEqual(sorted(listed));
    expect(names(legacy.message.result)).toEqual(listed);

    for (const era of ['modern', 'legacy'] as const) {
      const client = new Client(
        { name: 'order', version: '1' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
      );
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [BIN, '--sandbox'], stderr: 'pipe' }),
      );
      try {
        expect(client.getProtocolEra()).toBe(era);
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(listed);
      } finally {
        await client.close();
      }
    }
  });

  it('carries cache hints on 2026-07-28 list results and none on 2025 ones', async () => {
    for (const method of ['tools/list', 'prompts/list', 'resources/templates/list']) {
      const modern = await post(
        { jsonrpc: '2.0', id: 1, method, params: { _meta: ENVELOPE } },
        modernHeaders(method),
      );
      expect(modern.message.result, method).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'private' });
    }
    // The caller's own media and jobs change from call to call: not cached.
    const resources = await post(
      { jsonrpc: '2.0', id: 1, method: 'resources/list', params: { _meta: ENVELOPE } },
      modernHeaders('resources/list'),
    );
    expect(resources.message.result).toMatchObject({ ttlMs: 0 });
    const legacy = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, await legacySession());
    expect(legacy.message.result).not.toHaveProperty('ttlMs');
    expect(legacy.message.result).not.toHaveProperty('cacheScope');
  });
});

describe('Mcp-Method and Mcp-Name', () => {
  const call = (name: string, meta?: object) => ({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) },
  });
  const refusal = expect.objectContaining({
    error: expect.objectContaining({
      code: -32020,
      message: expect.stringContaining('headers and body disagree'),
    }),
  });

  it('refuses a 2026-07-28 request whose headers and body disagree', async () => {
    const wrongName = await post(call('auth_status', ENVELOPE), modernHeaders('tools/call', 'chat'));
    expect(wrongName.status).toBe(400);
    expect(wrongName.message).toEqual(refusal);
    const agreed = await post(call('auth_status', ENVELOPE), modernHeaders('tools/call', 'auth_status'));
    expect(agreed.status).toBe(200);
  });

  it('refuses a 2025 request whose headers and body disagree, and serves one whose agree', async () => {
    const session = await legacySession();
    const wrongName = await post(call('auth_status'), {
      ...session,
      'mcp-method': 'tools/call',
      'mcp-name': 'chat',
    });
    expect(wrongName.status).toBe(400);
    expect(wrongName.message).toEqual(refusal);
    expect(wrongName.message.error.message).toContain('params.name="auth_status"');
    const wrongMethod = await post(call('auth_status'), { ...session, 'mcp-method': 'tools/list' });
    expect(wrongMethod.status).toBe(400);
    expect(wrongMethod.message.error.message).toContain('Mcp-Method header names tools/list');
    const base64 = `=?base64?${Buffer.from('auth_status').toString('base64')}?=`;
    const agreed = await post(call('auth_status'), {
      ...session,
      'mcp-method': 'tools/call',
      'mcp-name': base64,
    });
    expect(agreed.status).toBe(200);
    expect(agreed.message.result.isError).toBeFalsy();
    // No headers at all: what 2025 clients send, served as ever.
    expect((await post(call('auth_status'), session)).status).toBe(200);
  });
});
