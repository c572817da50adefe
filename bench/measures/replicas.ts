import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startProxy } from '../../test/scale/lib/proxy.js';
import { startRedis } from '../../test/scale/lib/redis.js';
import { Replicas } from '../../test/scale/lib/replicas.js';
import { UNREACHED_RATE_LIMIT } from '../lib/child.js';
import type { Figure } from '../lib/figure.js';
import { percentile, round } from '../lib/stats.js';
import { rssMiB } from './soak.js';
import { type LoadShape, sleepUntil, startLoad } from './throughput.js';

export interface ReplicaBench {
  /** The platform every replica talks to (a sandbox). */
  baseUrl: string;
  key: string;
  /** The load process script (the throughput benchmark's). */
  worker: string;
  shape: LoadShape;
  /** Sequential calls per side for the store's added latency. */
  latencyCalls: number;
}

const UNLIMITED = { ORBIT_LOG_LEVEL: 'error', ORBIT_RATE_LIMIT: UNREACHED_RATE_LIMIT };

/** The call every measure makes: cheap on the server, so what the store adds shows. */
const CALL = { tool: 'auth_status', toolArgs: {} };

/**
 * Issue 16's figures: calls/s of 3 replicas sharing a Redis store against 1 (same proxy, same
 * load, 2025 sessions, so every call touches the store), the latency a Redis store adds to one
 * call against the default in-memory store, and the RSS of each replica after the load.
 */
export async function measureReplicas(bench: ReplicaBench): Promise<Figure[]> {
  const redis = await startRedis();
  const outputDir = await mkdtemp(join(tmpdir(), 'orbit-bench-replicas-'));
  try {
    const rounds: Record<'one' | 'three', { rps: number; rssMiB: number[] }[]> = { one: [], three: [] };
    // Alternating, so a slow moment of the machine does not land on one side only.
    for (const count of [1, 3, 3, 1]) {
      rounds[count === 1 ? 'one' : 'three'].push(await throughput(bench, count, redis.url, outputDir));
    }
    const best = (side: 'one' | 'three') => rounds[side].reduce((a, b) => (b.rps > a.rps ? b : a));
    const latency = await storeLatency(bench, redis.url, outputDir);
    const one = best('one');
    const three = best('three');
    const meanRss = three.rssMiB.reduce((a, b) => a + b, 0) / three.rssMiB.length;
    const load = `${bench.shape.workers} client processes × ${bench.shape.sessionsPerWorker} 2025 sessions`;
    return [
      {
        id: 'replicas_rps',
        measure: `Calls/s through a round-robin proxy, 3 replicas vs 1, both sharing Redis (${load}, ${CALL.tool})`,
        unit: 'calls/s',
        orbit: round(three.rps, 0),
        baseline: round(one.rps, 0),
        ratio: round(three.rps / one.rps),
        details: { rounds },
      },
      {
        id: 'store_latency_p50',
        measure: `Latency of one 2025 call, Redis store vs in memory, p50 (${bench.latencyCalls} calls each)`,
        unit: 'ms',
        orbit: round(latency.redis.p50, 3),
        baseline: round(latency.memory.p50, 3),
        added: round(latency.redis.p50 - latency.memory.p50, 3),
        target: '< 2 ms added',
        pass: latency.redis.p50 - latency.memory.p50 < 2,
      },
      {
        id: 'store_latency_p99',
        measure: 'Latency of one 2025 call, Redis store vs in memory, p99',
        unit: 'ms',
        orbit: round(latency.redis.p99, 3),
        baseline: round(latency.memory.p99, 3),
        added: round(latency.redis.p99 - latency.memory.p99, 3),
      },
      {
        id: 'replica_rss',
        measure: 'RSS per replica after the load, 3 replicas with Redis vs 1 replica with it',
        unit: 'MiB',
        orbit: round(meanRss, 1),
        baseline: round(one.rssMiB[0]!, 1),
        ratio: round(meanRss / one.rssMiB[0]!),
        details: { perReplica: three.rssMiB },
      },
    ];
  } finally {
    await redis.stop();
    await rm(outputDir, { recursive: true, force: true });
  }
}

async function throughput(bench: ReplicaBench, count: number, store: string, outputDir: string) {
  const replicas = await Replicas.start(count, {
    baseUrl: bench.baseUrl,
    store,
    outputDir,
    env: UNLIMITED,
  });
  const proxy = await startProxy(replicas.ports);
  try {
    const load = await startLoad(proxy.url, { ...CALL, key: bench.key }, bench.worker, 'legacy', bench.shape);
    await sleepUntil(load.until);
    const { calls, failed } = await load.done;
    if (failed > 0) throw new Error(`${failed} calls failed through ${count} replica(s)`);
    const rss = await Promise.all(replicas.all.map((replica) => rssMiB(replica.child!.pid!)));
    return { rps: calls / (bench.shape.windowMs / 1000), rssMiB: rss.map((value) => round(value, 1)) };
  } finally {
    await proxy.close();
    await replicas.stopAll();
  }
}

/** One replica with the Redis store and one without, the same calls to each in alternating blocks. */
async function storeLatency(bench: ReplicaBench, store: string, outputDir: string) {
  const withStore = await Replicas.start(1, {
    baseUrl: bench.baseUrl,
    store,
    outputDir,
    env: UNLIMITED,
  });
  const inMemory = await Replicas.start(1, {
    baseUrl: bench.baseUrl,
    outputDir,
    env: UNLIMITED,
  });
  const clients: Client[] = [];
  try {
    const connect = async (port: number) => {
      const client = new Client({ name: 'orbit-bench', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${bench.key}` } },
        }),
      );
      clients.push(client);
      return client;
    };
    const sides = { redis: await connect(withStore.ports[0]!), memory: await connect(inMemory.ports[0]!) };
    const samples: Record<keyof typeof sides, number[]> = { redis: [], memory: [] };
    const BLOCK = 50;
    for (let done = 0; done < bench.latencyCalls; done += BLOCK) {
      for (const side of ['redis', 'memory'] as const) {
        for (let i = 0; i < BLOCK; i++) {
          const started = performance.now();
          const result = await sides[side].callTool({ name: CALL.tool, arguments: CALL.toolArgs });
          samples[side].push(performance.now() - started);
          if (result.isError) throw new Error(`${CALL.tool} failed on the ${side} replica`);
        }
      }
    }
    const stats = (sample: number[]) => ({ p50: percentile(sample, 50), p99: percentile(sample, 99) });
    return { redis: stats(samples.redis), memory: stats(samples.memory) };
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await withStore.stopAll();
    await inMemory.stopAll();
  }
}
