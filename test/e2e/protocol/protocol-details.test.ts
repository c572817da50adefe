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
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';
import { messageOf, openSession, postMcp, rpc } from '../../helpers/http.js';

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
  const response = await postMcp(server.url, body, headers);
  return { status: response.status, message: await messageOf(response) };
}

/** A 2025 session opened by hand: the headers that name it. */
async function legacySession() {
  return (await openSession(server.url, { protocolVersion: LEGACY, id: 0, initialized: true })).headers;
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
    const modern = await post(rpc('tools/list', { _meta: ENVELOPE }), modernHeaders('tools/list'));
    const legacy = await post(rpc('tools/list'), await legacySession());
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
      const modern = await post(rpc(method, { _meta: ENVELOPE }), modernHeaders(method));
      expect(modern.message.result, method).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'private' });
    }
    // The caller's own media and jobs change from call to call: not cached.
    const resources = await post(rpc('resources/list', { _meta: ENVELOPE }), modernHeaders('resources/list'));
    expect(resources.message.result).toMatchObject({ ttlMs: 0 });
    const legacy = await post(rpc('tools/list', undefined, 2), await legacySession());
    expect(legacy.message.result).not.toHaveProperty('ttlMs');
    expect(legacy.message.result).not.toHaveProperty('cacheScope');
  });
});

describe('Mcp-Method and Mcp-Name', () => {
  const call = (name: string, meta?: object) =>
    rpc('tools/call', { name, arguments: {}, ...(meta ? { _meta: meta } : {}) }, 7);
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
