/**
 * Issue 16, proven end to end: a real redis-server, 3 replicas of the built server sharing it,
 * one sandbox platform, and a round-robin proxy in front, as a load balancer would be. Every
 * request of a client may land on another replica; replicas are killed and restarted under load.
 *
 * `ORBIT_SCALE_STORE=off` runs the same scenarios on replicas without a store (what main did):
 * then each scenario fails, which is how each was checked to prove something.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PEOPLE as PEOPLE,
  type Sandbox,
  startSandbox,
  SANDBOX_MANAGEMENT_TOKENS as TOKENS,
} from '../../src/sandbox/index.js';
import { textOf } from '../helpers/harness.js';
import { PROTOCOL_2025, postMcp, rpc } from '../helpers/http.js';
import { type RoundRobin, startProxy } from './lib/proxy.js';
import { type RunningRedis, startRedis } from './lib/redis.js';
import { probe, type Replica, Replicas } from './lib/replicas.js';

const WITH_STORE = process.env.ORBIT_SCALE_STORE !== 'off';
const LEASE_MS = 1_500;
const DRAIN_MS = 1_500;
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

let redis: RunningRedis;
let sandbox: Sandbox;
let replicas: Replicas;
let proxy: RoundRobin;
let outputDir: string;
const keys: string[] = [];
const clients: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  // Videos take long enough to kill a replica in the middle of one, and are polled often.
  sandbox = await startSandbox({
    quiet: true,
    // An experiment's steps last long enough, too (3 rows x 1 candidate x 1 scorer: 6 steps, ~5 s).
    timing: {
      videoQueueMs: 300,
      videoRenderMs: 7_000,
      pollHintMs: 250,
      streamChunkDelayMs: 10,
      evalQueueMs: 300,
      evalStepMs: 800,
    },
  });
  outputDir = await mkdtemp(join(tmpdir(), 'orbit-scale-'));
  replicas = await Replicas.start(3, {
    baseUrl: sandbox.url,
    store: WITH_STORE ? redis.url : undefined,
    outputDir,
    env: { ORBIT_LEASE_MS: String(LEASE_MS), ORBIT_DRAIN_MS: String(DRAIN_MS) },
  });
  proxy = await startProxy(replicas.ports);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await proxy?.close();
  await replicas?.stopAll();
  await sandbox?.close();
  await redis?.stop();
  if (outputDir) await rm(outputDir, { recursive: true, force: true });
});

function newKey(label: string): string {
  const key = sandbox.state.createKey({ label, balance: 1_000, dailyRequestLimit: 1_000_000 });
  keys.push(key);
  return key;
}

/** A 2025 client (the v1 SDK) with its own key, through the proxy. */
async function legacyClient(key: string, query = '') {
  const client = new Client({ name: 'scale-2025', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}${query}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport, sessionId: transport.sessionId! };
}

/** A 2026-07-28 client (no session: every request stands alone), through the proxy. */
async function modernClient(key: string) {
  const client = new ModernClient({ name: 'scale-2026', version: '1' }, MODERN);
  await client.connect(
    new ModernTransport(new URL(proxy.url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return client;
}

const mediaUri = (result: { content: unknown[] }): string => {
  const link = result.content.find(
    (item): item is { type: 'resource_link'; uri: string } =>
      typeof item === 'object' && item !== null && (item as { type?: string }).type === 'resource_link',
  );
  if (!link) throw new Error(`no resource_link in ${JSON.stringify(result.content).slice(0, 300)}`);
  return link.uri;
};

/** A 2025 call to a video that renders for seconds (long enough to stop its replica mid-way). */
function longVideo(
  client: Client,
  prompt: string,
  onprogress: (progress: Progress) => void,
): Promise<CallToolResult> {
  return client.callTool(
    { name: 'video_generate', arguments: { model: 'sandbox/video-pro', prompt, max_wait_s: 120 } },
    undefined,
    { timeout: 120_000, resetTimeoutOnProgress: true, onprogress },
  ) as Promise<CallToolResult>;
}

/** The replica that took the latest tools/call of a session. */
function replicaOfCall(sessionId: string): Replica {
  const last = proxy.log.filter((f) => f.session === sessionId && f.rpc === 'tools/call').at(-1);
  if (!last) throw new Error('the proxy saw no tools/call of this session');
  return replicas.all[last.replica]!;
}

async function untilReady(replica: Replica) {
  for (let i = 0; i < 100; i++) {
    if ((await probe(replica.port, '/ready').catch(() => ({ status: 0 }))).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`replica ${replica.index} never became ready`);
}

describe('three replicas behind a round-robin proxy, sharing one Redis', () => {
  it('serves a 2025 session opened on one replica from the others, to its own key only', async () => {
    const key = newKey('session owner');
    const { client, sessionId } = await legacyClient(key);
    for (let i = 0; i < 6; i++) {
      const result = (await client.callTool({
        name: 'models_list',
        arguments: { kind: 'video' },
      })) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
    }
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    const served = new Set(
      proxy.log.filter((f) => f.session === sessionId && f.status === 200).map((f) => f.replica),
    );
    expect([...served].sort()).toEqual([0, 1, 2]);

    // Another key presenting the session id finds nothing, on every replica.
    const stranger = newKey('stranger');
    for (const replica of replicas.all) {
      const res = await postMcp(`http://127.0.0.1:${replica.port}/mcp`, rpc('tools/list', undefined, 9), {
        authorization: `Bearer ${stranger}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': PROTOCOL_2025,
      });
      expect(res.status).toBe(404);
      await res.body?.cancel();
    }
  }, 60_000);

  it('delivers a 2025 client’s answer to a confirmation to the replica that asked, wherever it lands', async () => {
    const client = new Client({ name: 'scale-confirm', version: '1' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}?toolsets=keys`), {
      requestInit: {
        headers: { authorization: `Bearer ${PEOPLE.demo.apiKey}`, 'x-orbit-management-token': TOKENS.all },
      },
    });
    await client.connect(transport);
    clients.push(client);
    const sessionId = transport.sessionId!;
    const result = (await client.callTool({
      name: 'api_keys_write',
      arguments: { operation: 'create', name: 'made across replicas' },
    })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(asked).toHaveLength(2);
    expect(result.structuredContent).toMatchObject({
      data: { note: 'The secret was shown to the person once.' },
    });
    const caller = replicaOfCall(sessionId).index;
    const answeredOn = proxy.log.filter(
      (f) => f.session === sessionId && f.method === 'POST' && f.rpc === undefined,
    );
    expect(answeredOn.some((f) => f.replica !== caller)).toBe(true);
  }, 60_000);

  it('takes a 2026-07-28 client’s answer to a confirmation on whichever replica its retry reaches', async () => {
    // The state the asking replica signs must verify on the others, or the person is asked again.
    const client = new ModernClient(
      { name: 'scale-confirm-2026', version: '1' },
      { ...MODERN, capabilities: { elicitation: { form: {} } } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(
      new ModernTransport(new URL(`${proxy.url}?toolsets=keys`), {
        requestInit: {
          headers: { authorization: `Bearer ${PEOPLE.demo.apiKey}`, 'x-orbit-management-token': TOKENS.all },
        },
      }),
    );
    clients.push(client);
    const calls = proxy.log.length;
    const result = await client.callTool({
      name: 'api_keys_write',
      arguments: { operation: 'create', name: 'made across replicas (2026)' },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/Create the API key/);
    const rounds = proxy.log.slice(calls).filter((f) => f.rpc === 'tools/call');
    expect(new Set(rounds.map((f) => f.replica)).size).toBeGreaterThan(1);
  }, 60_000);

  it('keeps 32 concurrent tenants apart: each reads its own media and jobs on every replica, never another’s', async () => {
    const tenants = await Promise.all(
      Array.from({ length: 32 }, async (_, i) => {
        const key = newKey(`tenant ${i}`);
        // Half on 2025 sessions, half on 2026-07-28 stateless requests.
        const legacy = i % 2 === 0;
        const client = legacy ? (await legacyClient(key)).client : await modernClient(key);
        const call = async (name: string, args: Record<string, unknown>) =>
          (await client.callTool({ name, arguments: args })) as CallToolResult;
        const read = (uri: string) => client.readResource({ uri });
        const image = await call('image_generate', {
          model: 'pixel-lite',
          prompt: `tenant ${i}`,
          resolution: '512x512',
        });
        expect(image.isError, textOf(image)).toBeFalsy();
        const video = await call('video_generate', {
          model: 'sandbox/video-lite',
          prompt: `clip ${i}`,
          wait: false,
        });
        expect(video.isError, textOf(video)).toBeFalsy();
        const runId = (video.structuredContent as { run_id: string }).run_id;
        return { key, read, uri: mediaUri(image), runId, listed: () => client.listResources() };
      }),
    );
    await Promise.all(
      tenants.map(async (tenant, i) => {
        // Three reads in a row go to three replicas (round robin): each one serves it.
        const reads = await Promise.all([0, 1, 2].map(() => tenant.read(tenant.uri)));
        const blobs = reads.map((read) => (read.contents[0] as { blob?: string }).blob);
        expect(blobs[0]).toBeTruthy();
        expect(new Set(blobs).size).toBe(1);
        const job = await tenant.read(`orbit://jobs/${tenant.runId}`);
        expect((job.contents[0] as { text: string }).text).toContain(tenant.runId);
        const { resources } = await tenant.listed();
        const uris = resources.map((resource) => resource.uri);
        expect(uris).toContain(tenant.uri);
        // Nothing of another tenant is listed or readable.
        const other = tenants[(i + 1) % tenants.length]!;
        expect(uris).not.toContain(other.uri);
        await expect(tenant.read(other.uri)).rejects.toThrow();
        await expect(tenant.read(`orbit://jobs/${other.runId}`)).rejects.toThrow();
      }),
    );
  }, 90_000);

  it('reads a job and a media id made on one replica from the others (2026-07-28, no session)', async () => {
    const client = await modernClient(newKey('stateless'));
    const before = proxy.log.length;
    const image = (await client.callTool({
      name: 'image_generate',
      arguments: { model: 'pixel-lite', prompt: 'a lighthouse', resolution: '512x512' },
    })) as CallToolResult;
    expect(image.isError, textOf(image)).toBeFalsy();
    const made = proxy.log.slice(before).find((f) => f.rpc === 'tools/call')!.replica;
    const uri = mediaUri(image);
    const video = (await client.callTool({
      name: 'video_generate',
      arguments: { model: 'sandbox/video-lite', prompt: 'waves', wait: false },
    })) as CallToolResult;
    const runId = (video.structuredContent as { run_id: string }).run_id;
    const readsFrom = new Set<number>();
    for (let i = 0; i < 3; i++) {
      const at = proxy.log.length;
      const read = await client.readResource({ uri });
      expect((read.contents[0] as { blob?: string }).blob).toBeTruthy();
      const job = await client.readResource({ uri: `orbit://jobs/${runId}` });
      expect(JSON.parse((job.contents[0] as { text: string }).text)).toMatchObject({
        id: runId,
        kind: 'video',
      });
      for (const f of proxy.log.slice(at)) if (f.rpc === 'resources/read') readsFrom.add(f.replica);
    }
    expect([...readsFrom].some((replica) => replica !== made)).toBe(true);
    expect(readsFrom.size).toBe(3);
  }, 60_000);

  it('finishes a 2025 call whose replica is killed mid-stream: the client resumes on another and gets every progress event and the result', async () => {
    const { client, sessionId } = await legacyClient(newKey('killed mid-stream'));
    const progress: (Progress & { afterKill: boolean })[] = [];
    let killed: Replica | undefined;
    let killing: Promise<void> | undefined;
    const result = await longVideo(client, 'a long night', (p) => {
      progress.push({ ...p, afterKill: killed !== undefined });
      if (!killing && progress.length >= 2) {
        killed = replicaOfCall(sessionId);
        killing = replicas.kill(killed);
      }
    });
    await killing;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      status: 'COMPLETED',
      uri: expect.stringMatching(/^orbit:\/\/media\//),
    });
    expect(killed).toBeDefined();
    const values = progress.map((p) => p.progress);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]!);
    expect(progress.some((p) => p.afterKill)).toBe(true);
    // Another replica said it continued the call.
    const continuedBy = replicas.all.filter(
      (r) => r !== killed && r.stderr.join('').includes('continuing video_generate'),
    );
    expect(continuedBy).toHaveLength(1);
    await replicas.launch(killed!);
    await untilReady(killed!);
  }, 90_000);

  it('continues an eval_run whose replica is killed mid-way with the call its job names (evals_read), not an "interrupted" error', async () => {
    const { client, sessionId } = await legacyClient(newKey('eval killed mid-way'), '?toolsets=evals');
    let killed: Replica | undefined;
    let killing: Promise<void> | undefined;
    const result = (await client.callTool(
      {
        name: 'eval_run',
        arguments: {
          rows: [
            { input: 'Name the largest planet', expected_output: 'Jupiter' },
            { input: 'What is the capital of France?', expected_output: 'Paris' },
            { input: 'Spell ORBIT in lower case', expected_output: 'orbit' },
          ],
          candidates: [{ model: 'openai/gpt-sandbox-mini' }],
          scorers: ['contains'],
          max_wait_s: 60,
        },
      },
      undefined,
      {
        timeout: 90_000,
        resetTimeoutOnProgress: true,
        onprogress: () => {
          if (killing) return;
          killed = replicaOfCall(sessionId);
          killing = replicas.kill(killed);
        },
      },
    )) as CallToolResult;
    await killing;
    expect(killed).toBeDefined();
    expect(result.isError, textOf(result)).toBeFalsy();
    // The replica that took over ran the job's next call with its arguments: the experiment, read.
    expect(result.structuredContent).toMatchObject({
      operation: 'experiments.get',
      data: { experiment_id: expect.stringMatching(/^evalexp_/) },
    });
    const continuedBy = replicas.all.filter(
      (r) =>
        r !== killed &&
        r.stderr.join('').includes('continuing eval_run of a stopped replica with evals_read'),
    );
    expect(continuedBy).toHaveLength(1);
    await replicas.launch(killed!);
    await untilReady(killed!);
  }, 120_000);

  it('on SIGTERM hands a call still running at the drain deadline to another replica, which finishes it', async () => {
    const { client, sessionId } = await legacyClient(newKey('drained mid-call'));
    let drained: Replica | undefined;
    let draining: Promise<void> | undefined;
    let readyWhileDraining: number | undefined;
    const result = await longVideo(client, 'a slow dawn', () => {
      if (draining) return;
      drained = replicaOfCall(sessionId);
      draining = replicas.terminate(drained);
      setTimeout(() => {
        probe(drained!.port, '/ready').then(
          (r) => {
            readyWhileDraining = r.status;
          },
          () => {},
        );
      }, 200);
    });
    await draining;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'COMPLETED' });
    expect(readyWhileDraining).toBe(503);
    expect(drained!.stderr.join('')).toMatch(/1 call\(s\) handed to other replicas/);
    await replicas.launch(drained!);
    await untilReady(drained!);
  }, 90_000);

  it('restarts the replicas one by one under load without losing a call', async () => {
    const legacy = await Promise.all([0, 1, 2, 3].map((i) => legacyClient(newKey(`rolling ${i}`))));
    const modern = await Promise.all([0, 1].map((i) => modernClient(newKey(`rolling modern ${i}`))));
    let running = true;
    const failures: string[] = [];
    let calls = 0;
    const CHAT = { name: 'chat', arguments: { model: 'openai/gpt-sandbox', prompt: 'rolling restart' } };
    // A call that never ends would hang the test: it fails after 20 s instead.
    const TIMEOUT = { timeout: 20_000 };
    const loop = async (call: () => Promise<unknown>) => {
      while (running) {
        try {
          const result = (await call()) as CallToolResult;
          if (result.isError) failures.push(textOf(result));
          calls++;
        } catch (error) {
          failures.push(String(error));
          // A client that fails at once must not spin without yielding (the test's timer would never fire).
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    const loops = [
      // The v1 client's second argument is a result schema; the v2 client's is the options.
      ...legacy.map((l) => loop(() => l.client.callTool(CHAT, undefined, TIMEOUT))),
      ...modern.map((m) => loop(() => m.callTool(CHAT, TIMEOUT))),
    ];
    for (const replica of replicas.all) {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await replicas.terminate(replica);
      await replicas.launch(replica);
      await untilReady(replica);
    }
    await new Promise((resolve) => setTimeout(resolve, 700));
    running = false;
    await Promise.all(loops);
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(30);
    // Each drained replica exited because nothing of its own was left open (no exit by the safety net).
    for (const replica of replicas.all) expect(replica.stderr.join('')).not.toMatch(/handles still open/);
    // The 2025 clients kept their sessions through it all: every replica that serves them now
    // started after they opened, so it re-created them from the store.
    for (const { client, sessionId, transport } of legacy) {
      const result = (await client.callTool({
        name: 'models_list',
        arguments: { kind: 'video' },
      })) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(transport.sessionId).toBe(sessionId);
    }
  }, 120_000);

  it('logs one JSON line per request with the tenant fingerprint, tool, status and duration, and never a key', () => {
    const lines = replicas.all.flatMap((replica) => replica.requests());
    expect(lines.length).toBeGreaterThan(100);
    const call = lines.find((line) => line.tool === 'video_generate');
    expect(call).toMatchObject({
      msg: 'http request',
      method: 'POST',
      rpc: 'tools/call',
      tenant: expect.stringMatching(/^[0-9a-f]{12}$/),
      status: 200,
      ms: expect.any(Number),
      replica: expect.stringMatching(/^replica-\d$/),
    });
    const everything = replicas.all.map((replica) => replica.stderr.join('')).join('\n');
    for (const key of keys) expect(everything).not.toContain(key);
  });

  it('is ready while the store answers, and not ready (503) when it does not', async () => {
    for (const replica of replicas.all) expect((await probe(replica.port, '/ready')).status).toBe(200);
    await redis.stop();
    for (const replica of replicas.all) {
      const ready = await probe(replica.port, '/ready');
      expect(ready).toMatchObject({ status: 503, body: { status: 'store_unreachable' } });
      expect((await probe(replica.port, '/health')).status).toBe(200);
    }
  }, 30_000);
});
