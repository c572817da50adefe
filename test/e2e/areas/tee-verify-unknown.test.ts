/**
 * tee_verify on a request id whose bytes this server does not hold (issue 33, item 5): a reply
 * older than the 30 minutes its bytes are kept, and a reply made by another process of the server
 * (another replica: each keeps its own). Each answers with the line that says why, and with
 * `model` still checks the signer.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';
import { TEE_MODEL } from '../../sandbox/tee-helpers.js';

const BIN = 'dist/orbit-mcp.js';
const WHY =
  'it was not made by this server, it is older than 30 minutes or past the last 100 kept per key, or another replica made it (each keeps its own)';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await h.close();
});

describe('tee_verify on an enclave reply whose bytes are not held here', () => {
  it('after 30 minutes: held until then, then named as unknown with the reasons', async () => {
    const chat = out(await h.call('chat', { model: TEE_MODEL, prompt: 'Kept a while' }));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 29 * 60_000);
    const held = await h.call('tee_verify', { request_id: chat.request_id });
    expect(out(held), textOf(held)).toMatchObject({ verified: true, bytes_checked: true });

    vi.setSystemTime(Date.now() + 2 * 60_000);
    const gone = await h.call('tee_verify', { request_id: chat.request_id });
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).toBe(
      `Error (invalid_input): No enclave reply with request id "${chat.request_id}" is held here: ${WHY}. So its model is not known and its bytes cannot be compared.\nFix: Pass model (the TEE/ id it used) to check its signer alone, or verify on the server that made it within 30 minutes.`,
    );
  });

  it('made by another process of the server: its signer is checked, and the line says why the bytes were not', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` (npm test does it).`);
    const home = await mkdtemp(join(tmpdir(), 'orbit-replica-'));
    const other = new Client({ name: 'other-replica', version: '1' });
    await other.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          ORBIT_BASE_URL: h.sandbox.url,
          ORBIT_API_KEY: h.sandbox.demoKey,
          ORBIT_OUTPUT_DIR: join(home, 'out'),
        },
        stderr: 'pipe',
      }),
    );
    try {
      const made = await other.callTool({
        name: 'chat',
        arguments: { model: TEE_MODEL, prompt: 'Elsewhere' },
      });
      expect(made.isError).toBeFalsy();
      const requestId = (made.structuredContent as { request_id: string }).request_id;

      const unknown = await h.call('tee_verify', { request_id: requestId });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain(
        `No enclave reply with request id "${requestId}" is held here: ${WHY}.`,
      );

      const signer = await h.call('tee_verify', { request_id: requestId, model: TEE_MODEL });
      expect(out(signer), textOf(signer)).toMatchObject({ verified: true, bytes_checked: false });
      expect(textOf(signer)).toContain(
        `This server does not hold the bytes of that request, so the signed hashes were not compared with any reply: ${WHY}.`,
      );
      // The process that made it holds its bytes and compares them (its attestation check is its
      // own: a process started outside the test trusts no sandbox certificate).
      const there = await other.callTool({ name: 'tee_verify', arguments: { request_id: requestId } });
      const checks = (there.structuredContent as { checks: { id: string; status: string }[] }).checks;
      expect(there.structuredContent, JSON.stringify(there.content)).toMatchObject({ bytes_checked: true });
      expect(checks.filter((c) => c.id.endsWith('_hash')).map((c) => c.status)).toEqual(['passed', 'passed']);
    } finally {
      await other.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});
