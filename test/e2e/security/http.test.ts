/**
 * The remote endpoint as an attacker meets it (issue: security of the remote endpoint): the built
 * server over HTTP against a separate sandbox, two real keys, and hostile clients. Each `it` is
 * one finding that must stay impossible. ORBIT_TEST_BIN runs the same tests against another build.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { textOf } from '../../helpers/harness.js';
import { initialize, PROTOCOL_2025, postMcp, rpc } from '../../helpers/http.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const PROTOCOL = PROTOCOL_2025;

let sandbox: Sandbox;
let server: { url: string; child: ChildProcess };
let workDir: string;
let outputDir: string;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  keyA = sandbox.state.createKey({ label: 'tenant A', balance: 5 });
  keyB = sandbox.state.createKey({ label: 'tenant B', balance: 5 });
  workDir = await mkdtemp(join(tmpdir(), 'orbit-sec-cwd-'));
  outputDir = await mkdtemp(join(tmpdir(), 'orbit-sec-out-'));
  // A secret in the server's working folder, as deployments often have.
  await writeFile(join(workDir, '.env'), 'DATABASE_PASSWORD=server-side-secret\n');
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
    { cwd: workDir, env: { PATH: process.env.PATH ?? '' } },
  );
});
afterAll(async () => {
  if (server) await stopProcess(server.child);
  await sandbox?.close();
  await rm(workDir, { recursive: true, force: true });
  await rm(outputDir, { recursive: true, force: true });
});

/** An SDK client with its own key; `roots` makes it declare MCP roots (a hostile one declares `/`). */
async function connect(key: string, roots?: string[]) {
  const client = new Client({ name: 'tenant', version: '1' }, { capabilities: roots ? { roots: {} } : {} });
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots.map((uri) => ({ uri, name: uri })),
    }));
  }
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, transport, call, sessionId: transport.sessionId! };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

const rawPost = (body: object, headers: Record<string, string>) =>
  postMcp(server.url, body, { 'mcp-protocol-version': PROTOCOL, ...headers });

async function sessionCount(): Promise<number> {
  const health = (await (await fetch(new URL('/health', server.url))).json()) as { sessions: number };
  return health.sessions;
}

describe('the remote endpoint, attacked', () => {
  it('reads no server file for a remote client, whatever roots it declares', async () => {
    const hostile = await connect(keyA, ['file:///']);
    try {
      sandbox.clearRequests();
      const attempts = [
        hostile.call('image_edit', { prompt: 'x', images: ['/etc/passwd'] }),
        hostile.call('transcribe', { file: '/proc/self/environ' }),
        hostile.call('transcribe', { file: '.env' }),
        hostile.call('transcribe', { file: join(workDir, '.env') }),
        hostile.call('transcribe', { file: '/etc/no-such-file-here' }),
        // A file:// URI names the same server paths, so it is refused the same way.
        hostile.call('transcribe', { file: 'file:///proc/self/environ' }),
        hostile.call('transcribe', { file: `file://localhost${join(workDir, '.env')}` }),
        hostile.call('image_edit', { prompt: 'x', images: ['file:///etc/pass%77d'] }),
      ];
      const results = await Promise.all(attempts);
      for (const result of results) {
        expect(result.isError, textOf(result)).toBe(true);
        // Nothing about the server's folders, and no word on whether a path exists.
        expect(textOf(result)).not.toContain(workDir);
        expect(textOf(result)).not.toMatch(/No file at|outside the folders/);
      }
      expect(textOf(results[1]!).replace('/proc/self/environ', 'P')).toBe(
        textOf(results[4]!).replace('/etc/no-such-file-here', 'P'),
      );
      expect(textOf(results[5]!)).toBe(textOf(results[1]!));
      const uploads = sandbox.requests.filter(
        (r) => r.path.includes('/images/edits') || r.path.includes('transcri'),
      );
      expect(uploads).toEqual([]);
      expect(JSON.stringify(sandbox.requests)).not.toContain('server-side-secret');
    } finally {
      await hostile.client.close();
    }
  });

  it("keeps each key's media to itself: listings, reads, and inputs", async () => {
    const a = await connect(keyA);
    const b = await connect(keyB);
    try {
      const made = await a.call('speech_generate', { text: 'Only for A.', model: 'tts-mini', format: 'wav' });
      expect(made.isError, textOf(made)).toBeFalsy();
      const { uri, path } = made.structuredContent as { uri: string; path?: string };
      expect(uri).toMatch(/^orbit:\/\/media\/[a-f0-9]{32}$/);
      // A remote client learns no path on the server.
      expect(path).toBeUndefined();
      expect(JSON.stringify(made)).not.toContain(outputDir);

      // A sees and reads its own file, and may use it as an input.
      expect((await a.client.listResources()).resources.map((r) => r.uri)).toContain(uri);
      expect((await a.client.readResource({ uri })).contents[0]).toMatchObject({ mimeType: 'audio/wav' });

      // B sees nothing of A's, cannot read it, cannot use it or guess its place on disk.
      expect((await b.client.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
      await expect(b.client.readResource({ uri })).rejects.toThrow(/No saved media/);
      sandbox.clearRequests();
      const id = uri.split('/').pop()!;
      for (const file of [uri, join(outputDir, `${id}.wav`), join(outputDir, 'tenants')]) {
        const result = await b.call('transcribe', { file });
        expect(result.isError, textOf(result)).toBe(true);
      }
      expect(sandbox.requests.filter((r) => r.path.includes('transcri'))).toEqual([]);
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });

  it('never hands a session to another key, and one refused call ends only that session', async () => {
    const first = await connect(keyA);
    const second = await connect(keyA);
    try {
      // An event id of A's first session, as a stream reconnect would send it.
      const listed = await rawPost(rpc('tools/list', undefined, 7), {
        authorization: `Bearer ${keyA}`,
        'mcp-session-id': first.sessionId,
      });
      const eventId = /^id: (.+)$/m.exec(await listed.text())?.[1] ?? '1';

      // One 401 from the platform on A's first session.
      sandbox.faults.add({
        match: { path: '/api/v1/chat/completions' },
        status: 401,
        code: 'invalid_api_key',
      });
      const refused = await first.call('chat', { model: 'openai/gpt-sandbox', prompt: 'hello' });
      expect(refused.isError).toBe(true);

      // B presents A's session: as if it did not exist, for POST and for a replay.
      const takeover = await rawPost(rpc('tools/list', undefined, 8), {
        authorization: `Bearer ${keyB}`,
        'mcp-session-id': first.sessionId,
      });
      expect(takeover.status).toBe(404);
      for (const lastEventId of [eventId, '3']) {
        const replay = await fetch(server.url, {
          headers: {
            accept: 'text/event-stream',
            authorization: `Bearer ${keyB}`,
            'mcp-session-id': first.sessionId,
            'mcp-protocol-version': PROTOCOL,
            'last-event-id': lastEventId,
          },
        });
        expect(replay.status).toBe(404);
        await replay.body?.cancel();
      }

      // A's other session and new sessions of A are not locked out.
      const ok = await second.call('chat', { model: 'openai/gpt-sandbox', prompt: 'still fine' });
      expect(ok.isError, textOf(ok)).toBeFalsy();
      const fresh = await connect(keyA);
      expect((await fresh.call('auth_status', {})).isError).toBeFalsy();
      await fresh.client.close();
    } finally {
      await first.client.close().catch(() => {});
      await second.client.close();
    }
  });

  it('opens no session for made-up keys, however many', async () => {
    const before = await sessionCount();
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 10; batch++) {
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          rawPost(initialize(), { authorization: `Bearer sk-made-up-${batch}-${i}-0123456789abcdef` }),
        ),
      );
      for (const reply of replies) {
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        await reply.body?.cancel();
      }
    }
    expect(statuses.get(200)).toBeUndefined();
    expect([...statuses.keys()].every((status) => status === 401 || status === 429)).toBe(true);
    expect(await sessionCount()).toBe(before);
  });

  it('redacts a key the platform echoes back from results', async () => {
    const a = await connect(keyA);
    try {
      sandbox.faults.add({
        match: { path: '/api/v1/chat/completions' },
        status: 400,
        message: `Invalid request for key ${keyA}`,
      });
      const result = await a.call('chat', { model: 'openai/gpt-sandbox', prompt: 'hello' });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result)).not.toContain(keyA);
      expect(textOf(result)).toContain('[redacted]');
    } finally {
      await a.client.close();
    }
  });
});

describe('the remote endpoint without sessions', () => {
  let stateless: { url: string; child: ChildProcess };
  beforeAll(async () => {
    stateless = await startHttpServer(
      [BIN, '--http', '--stateless', '--port', '0', '--base-url', sandbox.url],
      {
        env: { PATH: process.env.PATH ?? '' },
      },
    );
  });
  afterAll(async () => {
    if (stateless) await stopProcess(stateless.child);
  });

  it('serves a known key and refuses a made-up one before any work', async () => {
    const call = (key: string) => postMcp(stateless.url, initialize(), { authorization: `Bearer ${key}` });
    expect((await call(keyA)).status).toBe(200);
    const refused = await call('sk-made-up-stateless-0123456789');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('invalid_token');
  });
});

describe('a hostile resource URI', () => {
  // Nothing a client sends costs more than linear time (issue 34): `orbit://models/` + "a/" x 32,000
  // + "\n" once held the event loop 1.09 s (a regex with two lazy groups, time growing with the
  // square of the length); 1 MB would have held it for minutes, and every tenant with it.
  it("is refused as invalid params, and another tenant's ping is answered while it is in flight", async () => {
    const [{ client: attacker }, { client: neighbour }] = await Promise.all([connect(keyA), connect(keyB)]);
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
    const { client } = await connect(keyA);
    const uri = `orbit://models/${'a/'.repeat(1_000)}\n`;
    const error = await failure(client.readResource({ uri }));
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown model kind "a"/) });
    await client.close();
  });
});
