import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpServer, stopProcess } from '../../scripts/lib/http-server.js';
import { childEnv } from '../lib/child.js';
import type { Figure } from '../lib/figure.js';
import { round } from '../lib/stats.js';

export interface HttpContender {
  args: string[];
  env?: Record<string, string>;
  tool: string;
  toolArgs: Record<string, unknown>;
}

/**
 * Calls per second with `sessions` clients, each with its own MCP session, each calling the tool
 * in a loop. Calls completing during the warm-up are not counted; the window is fixed in time.
 */
async function load(
  url: string,
  contender: HttpContender,
  sessions: number,
  warmupMs: number,
  windowMs: number,
) {
  const clients = await Promise.all(
    Array.from({ length: sessions }, async () => {
      const client = new Client({ name: 'orbit-bench', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
  const start = performance.now();
  const from = start + warmupMs;
  const until = from + windowMs;
  let counted = 0;
  let failed = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until) {
        const result = await client.callTool({ name: contender.tool, arguments: contender.toolArgs });
        const done = performance.now();
        if (result.isError) failed++;
        else if (done >= from && done < until) counted++;
      }
    }),
  );
  await Promise.all(clients.map((client) => client.close()));
  if (failed > 0) throw new Error(`${failed} calls of ${contender.tool} failed under load`);
  return counted / (windowMs / 1000);
}

export async function measureThroughput(
  orbit: HttpContender,
  baseline: HttpContender,
  sessions: number,
  windowMs: number,
): Promise<Figure> {
  const rps: Record<'orbit' | 'baseline', number[]> = { orbit: [], baseline: [] };
  // Two rounds each, alternating, so a slow moment of the machine does not land on one side only.
  for (const name of ['orbit', 'baseline', 'baseline', 'orbit'] as const) {
    const contender = name === 'orbit' ? orbit : baseline;
    const { url, child } = await startHttpServer(contender.args, { env: childEnv(contender.env) });
    try {
      rps[name].push(await load(url, contender, sessions, 1_000, windowMs));
    } finally {
      await stopProcess(child);
    }
  }
  const best = (values: number[]) => Math.max(...values);
  return {
    id: 'http_rps',
    measure: `Requests/s, ${sessions} concurrent HTTP sessions (${orbit.tool} vs one-tool echo server)`,
    unit: 'req/s',
    orbit: round(best(rps.orbit), 0),
    baseline: round(best(rps.baseline), 0),
    ratio: round(best(rps.orbit) / best(rps.baseline)),
    details: {
      rounds: { orbit: rps.orbit.map((x) => round(x, 0)), baseline: rps.baseline.map((x) => round(x, 0)) },
      windowMs,
      note: 'clients run in the bench process; the best of two rounds is reported',
    },
  };
}
