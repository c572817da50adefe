/**
 * The MCP Server Card over HTTP (SEP-1649's `/.well-known/mcp/server-card.json`): made from the
 * shipped server.json, served without credentials by an endpoint that asks for them everywhere
 * else, naming the endpoint itself as the Streamable HTTP remote.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { postMcp, rpc, sendRaw } from '../../helpers/http.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const serverJson = JSON.parse(readFileSync('server.json', 'utf8'));

let sandbox: Sandbox;
let server: { url: string; child: ChildProcess };
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  server = await startHttpServer([BIN, '--http', '--port', '0', '--base-url', sandbox.url]);
});
afterAll(async () => {
  if (server) await stopProcess(server.child);
  await sandbox?.close();
});

describe('the server card', () => {
  it('is served without credentials, from server.json, naming this endpoint as its remote', async () => {
    const card = new URL('/.well-known/mcp/server-card.json', server.url);
    const res = await fetch(card);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body).toMatchObject({
      name: serverJson.name,
      title: serverJson.title,
      description: serverJson.description,
      version: serverJson.version,
      remotes: [{ type: 'streamable-http', url: server.url }],
    });
    expect(body.remotes[0].supportedProtocolVersions).toEqual(
      expect.arrayContaining(['2025-11-25', '2026-07-28']),
    );
    // The MCP endpoint itself still asks for a key.
    const mcp = await postMcp(server.url, rpc('tools/list'));
    expect(mcp.status).toBe(401);
  });

  it('is refused to a Host the endpoint does not serve, as everything else is', async () => {
    const card = new URL('/.well-known/mcp/server-card.json', server.url);
    const res = await sendRaw(card, { method: 'GET', headers: { host: 'evil.example' } });
    expect(res.status).toBe(403);
  });
});
