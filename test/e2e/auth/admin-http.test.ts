/**
 * The admin tools over the remote endpoint: a caller sends its management token and session in
 * headers beside its key (never in the URL), the session is bound to that whole set, and a
 * missing one is explained in terms of headers, not of the server's environment.
 */
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';
import {
  SANDBOX_PEOPLE as P,
  type Sandbox,
  startSandbox,
  SANDBOX_MANAGEMENT_TOKENS as T,
} from '../../../src/sandbox/index.js';
import { textOf } from '../../helpers/harness.js';
import { PROTOCOL_2025, postMcp, rpc } from '../../helpers/http.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');

let sandbox: Sandbox;
let server: { url: string; child: ChildProcess };

beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  server = await startHttpServer(
    [
      BIN,
      '--http',
      '--port',
      '0',
      '--base-url',
      sandbox.url,
      '--toolsets',
      'account,teams',
      '--log-level',
      'error',
    ],
    { env: { PATH: process.env.PATH ?? '' } },
  );
});
afterAll(async () => {
  if (server) await stopProcess(server.child);
  await sandbox?.close();
});

async function connect(headers: Record<string, string>) {
  const client = new Client({ name: 'admin', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, call, sessionId: transport.sessionId! };
}

describe('admin credentials over HTTP', () => {
  it('a management token and a session sent in headers reach usage_get and teams_read', async () => {
    const { client, call } = await connect({
      authorization: `Bearer ${P.demo.apiKey}`,
      'x-orbit-management-token': T.usage,
      'x-orbit-session': P.member.session,
    });
    try {
      sandbox.clearRequests();
      const usage = await call('usage_get');
      expect(usage.isError).toBeFalsy();
      expect(usage.structuredContent).toMatchObject({ quotas: { daily_input_tokens: { used: 350_000 } } });
      const teams = await call('teams_read', { operation: 'list' });
      expect(teams.structuredContent).toMatchObject({ data: [expect.objectContaining({ role: 'member' })] });
      expect(sandbox.requests.find((r) => r.path === '/api/teams')?.headers.cookie).toBe(
        `orbit_session=${P.member.session}`,
      );
      // The values never come back, even inside a result.
      expect(JSON.stringify([usage, teams])).not.toContain(T.usage);
      expect(JSON.stringify([usage, teams])).not.toContain(P.member.session);
    } finally {
      await client.close();
    }
  });

  it('without them, the error says which header to send', async () => {
    const { client, call } = await connect({ authorization: `Bearer ${P.demo.apiKey}` });
    try {
      const teams = await call('teams_read', { operation: 'list' });
      expect(teams.isError).toBe(true);
      expect(textOf(teams)).toContain('x-orbit-session');
      expect(textOf(teams)).not.toContain('ORBIT_SESSION');
      const usage = await call('usage_get');
      expect(textOf(usage)).toContain('x-orbit-management-token');
    } finally {
      await client.close();
    }
  });

  it('a session is bound to the credentials that opened it: another session header cannot ride on it', async () => {
    const { client, sessionId } = await connect({
      authorization: `Bearer ${P.demo.apiKey}`,
      'x-orbit-session': P.member.session,
    });
    try {
      const borrowed = await postMcp(
        server.url,
        rpc('tools/call', { name: 'teams_read', arguments: { operation: 'list' } }, 9),
        {
          authorization: `Bearer ${P.demo.apiKey}`,
          'x-orbit-session': P.demo.session,
          'mcp-session-id': sessionId,
          'mcp-protocol-version': PROTOCOL_2025,
        },
      );
      expect(borrowed.status).toBe(404);
    } finally {
      await client.close();
    }
  });
});
