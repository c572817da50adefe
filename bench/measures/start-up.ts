import { performance } from 'node:perf_hooks';
import { childEnv, INITIALIZE, StdioChild } from '../lib/child.js';
import type { Figure } from '../lib/figure.js';
import { median, round } from '../lib/stats.js';

export interface Contender {
  name: string;
  args: string[];
  env: Record<string, string>;
  /** The Node binary; this process's by default. */
  node?: string;
}

interface Sample {
  startMs: number;
  rssKiB: number;
}

/** One cold start: spawn, initialize, tools/list, read the child's RSS, stop. */
async function once(contender: Contender): Promise<Sample> {
  const started = performance.now();
  const child = new StdioChild(contender.node ?? process.execPath, contender.args, childEnv(contender.env));
  try {
    // Registered before any byte can arrive, and written at once: the pipe holds it until the
    // child reads, so the time measured is spawn to reply, not our own scheduling.
    const initialized = child.reply(1);
    child.send(INITIALIZE);
    const { at } = await initialized;
    child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const listed = child.reply(2);
    child.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await listed;
    return { startMs: at - started, rssKiB: await child.rssKiB() };
  } finally {
    await child.stop();
  }
}

/**
 * Cold start and resident memory of each contender, runs interleaved (the order rotates every
 * round) so that drift in machine load falls on all of them alike. Two warm-up rounds fill the
 * page cache and are not counted.
 */
export async function measureStartUp(
  contenders: Contender[],
  rounds: number,
): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(contenders.map((c) => [c.name, []]));
  for (let r = -2; r < rounds; r++) {
    const order = contenders.map((_, i) => contenders[(i + Math.max(r, 0)) % contenders.length]!);
    for (const contender of order) {
      const sample = await once(contender);
      if (r >= 0) samples.get(contender.name)!.push(sample);
    }
  }
  return samples;
}

export function startUpFigures(
  samples: Map<string, Sample[]>,
  orbit: string,
  baseline: string,
  unbundled: string,
): Figure[] {
  const of = (name: string) => samples.get(name)!;
  const start = (name: string) => median(of(name).map((s) => s.startMs));
  const rss = (name: string) => median(of(name).map((s) => s.rssKiB)) / 1024;
  const runs = of(orbit).length;
  const startRatio = start(orbit) / start(baseline);
  const rssRatio = rss(orbit) / rss(baseline);
  return [
    {
      id: 'cold_start',
      measure: `Cold start to initialize reply, stdio (median of ${runs})`,
      unit: 'ms',
      orbit: round(start(orbit), 1),
      baseline: round(start(baseline), 1),
      ratio: round(startRatio),
      target: '≤ 1.1×',
      pass: startRatio <= 1.1,
      details: {
        baseline: 'one-tool SDK server packaged the same way (scripts/bundle.ts)',
        unbundledBaselineMs: round(start(unbundled), 1),
        samplesMs: Object.fromEntries(
          [...samples].map(([name, s]) => [name, s.map((x) => round(x.startMs, 1))]),
        ),
      },
    },
    {
      id: 'cold_start_unbundled_baseline',
      measure: 'Cold start against the baseline not bundled (context)',
      unit: 'ms',
      orbit: round(start(orbit), 1),
      baseline: round(start(unbundled), 1),
      ratio: round(start(orbit) / start(unbundled)),
    },
    {
      id: 'rss_after_tools_list',
      measure: `Resident memory after tools/list (median of ${runs})`,
      unit: 'MiB',
      orbit: round(rss(orbit), 1),
      baseline: round(rss(baseline), 1),
      ratio: round(rssRatio),
      target: '≤ 1.2×',
      pass: rssRatio <= 1.2,
      details: { unbundledBaselineMiB: round(rss(unbundled), 1) },
    },
  ];
}

/** Cold start on another Node (BENCH_NODE, e.g. 22, where the bin turns on Node's compile cache). */
export function otherNodeFigure(samples: Map<string, Sample[]>, version: string): Figure {
  const start = (name: string) => median(samples.get(name)!.map((s) => s.startMs));
  const ratio = start('orbit') / start('baseline');
  return {
    id: 'cold_start_other_node',
    measure: `Cold start on Node ${version}, compile cache on for orbit (median of ${samples.get('orbit')!.length})`,
    unit: 'ms',
    orbit: round(start('orbit'), 1),
    baseline: round(start('baseline'), 1),
    ratio: round(ratio),
    target: '≤ 1.1×',
    pass: ratio <= 1.1,
  };
}
