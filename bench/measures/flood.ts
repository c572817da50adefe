import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHttpServer, stopProcess } from '../../scripts/lib/http-server.js';
import { childEnv } from '../lib/child.js';
import type { Figure } from '../lib/figure.js';
import { ORBIT_BIN } from '../lib/paths.js';
import { percentile, round } from '../lib/stats.js';
import { sleepUntil, startLoad } from './throughput.js';

export interface FloodBench {
  /** The platform (a sandbox). */
  baseUrl: string;
  /** The key that floods, and the key whose calls are timed. */
  flooder: string;
  other: string;
  /** The load process script (the throughput benchmark's). */
  worker: string;
  windowMs: number;
}

/** The call both keys make: free and local, so what is measured is the endpoint, not the platform. */
const CALL = { tool: 'auth_status', toolArgs: {} };
/** 64 calls of one key in flight at once, from two client processes on one session each. */
const FLOOD = { workers: 2, sessionsPerWorker: 1, loopsPerSession: 32, warmupMs: 1_000 };
/** The other key calls at an honest pace (under the default 50 a second of a key), one at a time. */
const PACE_MS = 25;
/** Behind a trusted proxy each client has its own address, as strangers on the internet do. */
const OTHER_ADDRESS = '203.0.113.7';

type Side = 'on' | 'off';

/**
 * Issue 34's figures: another key's latency while one key floods the endpoint (64 calls in flight),
 * with the request-rate limits on (the default) and off (`--rate-limit off`, the endpoint as it was
 * before them), in alternating rounds of the same run; and the same key's latency with no flood.
 */
export async function measureFlood(bench: FloodBench): Promise<Figure[]> {
  const samples: Record<Side | 'quiet', number[]> = { on: [], off: [], quiet: [] };
  const flood: Record<Side, { served: number; refused: number }[]> = { on: [], off: [] };
  for (const side of ['off', 'on', 'on', 'off'] as const) {
    const round_ = await floodRound(bench, side);
    samples[side].push(...round_.latencies);
    flood[side].push(round_.flood);
  }
  samples.quiet = await quietRound(bench);
  const stat = (side: Side | 'quiet', p: number) => percentile(samples[side], p);
  const measure = (p: number) =>
    `Another key's ${CALL.tool} under a flood of one key (64 in flight, 2025 sessions), p${p}: rate limits on (default) vs off`;
  const perSecond = (runs: { served: number; refused: number }[]) =>
    runs.map((run) => ({
      served: round(run.served / (bench.windowMs / 1000), 0),
      refused: round(run.refused / (bench.windowMs / 1000), 0),
    }));
  const details = {
    calls: { on: samples.on.length, off: samples.off.length, quiet: samples.quiet.length },
    quiet: { p50: round(stat('quiet', 50), 3), p99: round(stat('quiet', 99), 3) },
    floodPerSecond: { on: perSecond(flood.on), off: perSecond(flood.off) },
  };
  return [50, 99].map((p) => ({
    id: `flood_other_key_p${p}`,
    measure: measure(p),
    unit: 'ms',
    orbit: round(stat('on', p), 3),
    baseline: round(stat('off', p), 3),
    ratio: round(stat('on', p) / stat('off', p)),
    details,
  }));
}

async function floodRound(bench: FloodBench, side: Side) {
  const server = await start(bench, side);
  const client = await connect(server.url, bench.other);
  try {
    const load = await startLoad(server.url, { ...CALL, key: bench.flooder }, bench.worker, 'legacy', {
      ...FLOOD,
      windowMs: bench.windowMs,
    });
    await sleepUntil(load.from);
    const latencies = await pacedCalls(client, load.until);
    const { calls, failed } = await load.done;
    return { latencies, flood: { served: calls, refused: failed } };
  } finally {
    await client.close().catch(() => {});
    await stopProcess(server.child);
  }
}

async function quietRound(bench: FloodBench): Promise<number[]> {
  const server = await start(bench, 'on');
  const client = await connect(server.url, bench.other);
  try {
    return await pacedCalls(client, Date.now() + bench.windowMs);
  } finally {
    await client.close().catch(() => {});
    await stopProcess(server.child);
  }
}

function start(bench: FloodBench, side: Side) {
  return startHttpServer(
    [ORBIT_BIN, '--http', '--port', '0', '--base-url', bench.baseUrl, '--trust-proxy', '1'],
    {
      env: childEnv({ ORBIT_LOG_LEVEL: 'error', ...(side === 'off' ? { ORBIT_RATE_LIMIT: 'off' } : {}) }),
    },
  );
}

async function connect(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'orbit-bench-other-key', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': OTHER_ADDRESS } },
    }),
  );
  return client;
}

/** One call every PACE_MS (or as soon as the last returns) until `until`; each one's time. */
async function pacedCalls(client: Client, until: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = Date.now();
  while (Date.now() < until) {
    const started = performance.now();
    const result = await client.callTool({ name: CALL.tool, arguments: CALL.toolArgs });
    latencies.push(performance.now() - started);
    if (result.isError) throw new Error(`the other key's ${CALL.tool} failed under the flood`);
    next += PACE_MS;
    await sleepUntil(next);
  }
  return latencies;
}
