/**
 * Nothing a client sends costs more than linear time (issue 34): the built server over HTTP,
 * two tenants, one of them hostile. A request that stalled the event loop would stall every
 * tenant of the replica, so each case checks that another tenant is still served meanwhile.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../scripts/lib/http-server.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');

let sandbox: Sandbox;
let server: { url: string; child: ChildProcess };
let outputDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  outputDir = await mkdtemp(join(tmpdir(), 'orbit-linear-out-'));
  server = await startHttpServer(
    [
      BIN,
      '--http',
      '--port',
      '0',
      '--base-url',
      sandbox.url,
      '--output-dir',
      outputDir,
      '--log-level',
      'error',
    ],
    { env: { PATH: process.env.PATH ?? '' } },
  );
});
afterAll(async () => {
  if (server) await stopProcess(server.child);
  await sandbox?.close();
  await rm(outputDir, { recursive: true, force: true });
});

async function connect(label: string) {
  const key = sandbox.state.createKey({ label, balance: 5 });
  const client = new Client({ name: label, version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('a hostile resource URI', () => {
  // `orbit://models/` + "a/" x 32,000 + "\n" once held the event loop 1.09 s (a regex with two lazy
  // groups, time growing with the square of the length); 1 MB would have held it for minutes.
  it("is refused as invalid params, and another tenant's ping is answered while it is in flight", async () => {
    const [attacker, neighbour] = await Promise.all([connect('attacker'), connect('neighbour')]);
    const uri = `orbit://models/${'a/'.repeat(500_000)}\n`;
    let bigSettled = false;
    const big = failure(attacker.readResource({ uri })).finally(() => {
      bigSettled = true;
    });
    expect(bigSettled).toBe(false);
    const pings = await Promise.all([neighbour.ping(), neighbour.ping(), neighbour.ping()]);
    expect(pings).toEqual([{}, {}, {}]);
    expect(await big).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/at most 2048 are read/),
    });
    // The attacker's session is still usable: a refusal, not a crash.
    expect(await attacker.ping()).toEqual({});
    await Promise.all([attacker.close(), neighbour.close()]);
  });

  it('is matched in one scan just under the length cap', async () => {
    const client = await connect('prober');
    const uri = `orbit://models/${'a/'.repeat(1_000)}\n`;
    const error = await failure(client.readResource({ uri }));
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown model kind "a"/) });
    await client.close();
  });
});
