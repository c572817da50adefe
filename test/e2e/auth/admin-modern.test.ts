/**
 * The admin tools with a 2026-07-28 client over stdio (the built binary): there a confirmation
 * returns input_required and the call runs again from its start with the person's answer, so a
 * confirmed step must change things exactly once, and a declined one not at all.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PEOPLE as P,
  type Sandbox,
  startSandbox,
  SANDBOX_MANAGEMENT_TOKENS as T,
} from '../../../src/sandbox/index.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');

let sandbox: Sandbox;
let configDir: string;
let client: Client;
let answer: 'accept' | 'decline' = 'accept';
const asked: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  configDir = await mkdtemp(join(tmpdir(), 'orbit-admin-modern-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--base-url', sandbox.url, '--toolsets', 'all'],
    env: {
      PATH: process.env.PATH ?? '',
      ORBIT_CONFIG_DIR: configDir,
      ORBIT_NO_BROWSER: '1',
      ORBIT_API_KEY: P.outsider.apiKey,
      ORBIT_MANAGEMENT_TOKEN: T.all,
      ORBIT_SESSION: P.outsider.session,
    },
    stderr: 'pipe',
  });
  client = new Client(
    { name: 'e2e-admin-modern', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  await rm(configDir, { recursive: true, force: true });
});

const data = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { data: Record<string, unknown> }).data;
const count = (method: string, path: string) =>
  sandbox.requests.filter((r) => r.method === method && r.path === path).length;

describe('admin tools with a 2026-07-28 client', () => {
  it('deletes a team once when the person confirms, and not at all when they decline', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    const kept = data(
      await client.callTool({ name: 'teams_write', arguments: { operation: 'create', name: 'Kept' } }),
    );
    answer = 'decline';
    asked.length = 0;
    const declined = await client.callTool({
      name: 'teams_write',
      arguments: { operation: 'delete', team: kept.uuid },
    });
    expect(declined.isError).toBe(true);
    expect(asked).toHaveLength(1);
    expect(count('DELETE', `/api/teams/${kept.uuid}`)).toBe(0);

    answer = 'accept';
    asked.length = 0;
    sandbox.clearRequests();
    const done = await client.callTool({
      name: 'teams_write',
      arguments: { operation: 'delete', team: kept.uuid },
    });
    expect(done.isError, JSON.stringify(done.content)).toBeFalsy();
    expect(asked).toEqual([expect.stringMatching(/^Delete the team "Kept"/)]);
    expect(count('DELETE', `/api/teams/${kept.uuid}`)).toBe(1);
    // The call ran twice (once to ask, once with the answer): the reads twice, the delete once.
    expect(count('GET', `/api/teams/${kept.uuid}`)).toBe(2);
  });

  it('creates one key, with its secret in a file, and revokes it once confirmed', async () => {
    sandbox.clearRequests();
    const created = await client.callTool({
      name: 'api_keys_write',
      arguments: { operation: 'create', name: 'modern' },
    });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const { key, secret_file } = data(created) as { key: { id: string }; secret_file: string };
    const secret = readFileSync(secret_file, 'utf8').trim();
    expect(sandbox.state.getKey(secret)?.id).toBe(key.id);
    expect(JSON.stringify(created)).not.toContain(secret);
    expect(count('POST', '/api/management/v1/api-keys')).toBe(1);

    answer = 'accept';
    const revoked = await client.callTool({
      name: 'api_keys_write',
      arguments: { operation: 'revoke', id: key.id },
    });
    expect(data(revoked)).toEqual({ id: key.id, deleted: true });
    expect(count('DELETE', `/api/management/v1/api-keys/${key.id}`)).toBe(1);
    expect(sandbox.state.getKey(secret)).toBeUndefined();
  });
});
