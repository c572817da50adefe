/**
 * `npm run bench`: measures orbit-mcp against baselines in one run and writes bench/results.json
 * and the benchmark table in docs/benchmarks.md. Everything runs on 127.0.0.1; every loop is bounded.
 * Sizes can be lowered for a quick look (BENCH_START_RUNS, BENCH_CHAT_CALLS, BENCH_RPS_WINDOW_MS,
 * BENCH_RPS_ROUNDS), but the published figures use the defaults. BENCH_NODE=<path to another node> adds the cold start
 * on that Node (CI's Node 22 from the npm registry, where the bin uses Node's compile cache).
 * BENCH_ONLY=start,throughput (any of start, tokens, retrieval, latency, progress, image, throughput, soak, replicas, reservation, flood)
 * runs only those measures and prints them without touching docs/benchmarks.md or bench/results.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SANDBOX_DEMO_KEY, startSandbox } from '../src/sandbox/index.js';
import { buildBaselines } from './lib/build-baselines.js';
import { UNREACHED_RATE_LIMIT } from './lib/child.js';
import type { Figure } from './lib/figure.js';
import { BENCH_OUTPUT_DIR, ORBIT_BIN } from './lib/paths.js';
import { markdownTable, readmeSummary, writeReadmeBlock, writeResults } from './lib/report.js';
import { measureFirstProgress } from './measures/first-progress.js';
import { measureFlood } from './measures/flood.js';
import { measureLargeImage } from './measures/large-image.js';
import { BARE_TOOLS, measureLatency } from './measures/latency.js';
import { measureReplicas } from './measures/replicas.js';
import { measureReservation } from './measures/reservation.js';
import { measureRetrieval } from './measures/retrieval.js';
import { measureSoak, measureStdioSoak, STDIO_SOAKS } from './measures/soak.js';
import { measureStartUp, otherNodeFigure, startUpFigures } from './measures/start-up.js';
import { measureThroughput } from './measures/throughput.js';
import { measureTokens } from './measures/tokens.js';

const size = (name: string, fallback: number, min: number) =>
  Math.max(min, Number(process.env[name] ?? fallback));
const START_RUNS = size('BENCH_START_RUNS', 21, 15);
const CHAT_CALLS = size('BENCH_CHAT_CALLS', 500, 200);
const PROGRESS_CALLS = 100;
const IMAGE_ROUNDS = 5;
const STREAM_CHUNK_DELAY_MS = 5;
/** Several client processes, so the load generator is not the bottleneck. */
const LOAD = { workers: 4, sessionsPerWorker: 8, warmupMs: 1_000 };
const RPS_WINDOW_MS = size('BENCH_RPS_WINDOW_MS', 5_000, 1_000);
const RPS_ROUNDS = size('BENCH_RPS_ROUNDS', 4, 2);
const SOAK_CHECKPOINTS = [1_000, size('BENCH_SOAK_CALLS', 5_000, 1_000)];
const SOAK_TENANTS = 8;
const STORE_CALLS = size('BENCH_STORE_CALLS', 500, 100);
const RESERVATION_CALLS = size('BENCH_RESERVATION_CALLS', 1_000, 200);

const say = (line: string) => process.stdout.write(`${line}\n`);
const MEASURES = [
  'start',
  'tokens',
  'retrieval',
  'latency',
  'progress',
  'image',
  'throughput',
  'soak',
  'replicas',
  'reservation',
  'flood',
] as const;
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !(MEASURES as readonly string[]).includes(name)) ?? [];
if (unknown.length > 0) {
  throw new Error(`BENCH_ONLY: unknown measure ${unknown.join(', ')}; use any of ${MEASURES.join(', ')}`);
}
const wanted = (measure: (typeof MEASURES)[number]) => !only || only.includes(measure);

// Other work on the machine moves these figures more than anything in the code; record it.
const loadAtStart = loadavg()[0]!;
if (!existsSync(ORBIT_BIN)) {
  throw new Error(`${ORBIT_BIN} is missing: run \`npm run bench\`, which builds first.`);
}
if (loadAtStart > cpus().length / 2) {
  say(
    `note: load average ${loadAtStart.toFixed(1)} on ${cpus().length} cpus; other work will skew the figures`,
  );
}
say('building baselines…');
const baselines = await buildBaselines();
const { startInProcess, startBareInProcess } = (await import(
  pathToFileURL(resolve(baselines.inProcess)).href
)) as typeof import('./lib/in-process.js');
const sandbox = await startSandbox({ quiet: true });
const figures: Figure[] = [];
// The plain server (no --sandbox) pointed at a sandbox that is already up: what a desktop
// assistant starts, without timing the sandbox's own start.
const orbitEnv = { ORBIT_BASE_URL: sandbox.url, ORBIT_API_KEY: SANDBOX_DEMO_KEY };
const run: Record<(typeof MEASURES)[number], () => Promise<Figure[]>> = {
  async start() {
    say(`cold start and memory: ${START_RUNS} interleaved runs each…`);
    const samples = await measureStartUp(
      [
        { name: 'orbit', args: [ORBIT_BIN], env: orbitEnv },
        { name: 'baseline', args: [baselines.bundled], env: {} },
        { name: 'unbundled', args: [baselines.unbundled], env: {} },
      ],
      START_RUNS,
    );
    const out = startUpFigures(samples, 'orbit', 'baseline', 'unbundled');
    const otherNode = process.env.BENCH_NODE;
    if (otherNode) {
      const version = execFileSync(otherNode, ['--version'], { encoding: 'utf8' }).trim();
      say(`cold start on Node ${version}…`);
      const other = await measureStartUp(
        [
          { name: 'orbit', args: [ORBIT_BIN], env: orbitEnv, node: otherNode },
          { name: 'baseline', args: [baselines.bundled], env: {}, node: otherNode },
        ],
        START_RUNS,
      );
      out.push(otherNodeFigure(other, version));
    }
    return out;
  },

  async tokens() {
    say('tools/list tokens…');
    return measureTokens([ORBIT_BIN], orbitEnv);
  },

  async retrieval() {
    say('retrieval: BM25 tool search over the listing, this one and the one before issue 35…');
    return measureRetrieval();
  },

  async latency() {
    // A key of its own, so the demo key's balance and daily limit do not bound the loops.
    const key = sandbox.state.createKey({ balance: 1_000_000, label: 'bench' });
    say(
      `added latency: ${CHAT_CALLS} interleaved calls each (orbit-mcp, the bare SDK server, direct), chat (stream false and true), web_search, models_list…`,
    );
    const mcp = await startInProcess(sandbox.url, key);
    const bare = await startBareInProcess(sandbox.url, key, BARE_TOOLS);
    try {
      return await measureLatency(mcp, bare, sandbox.url, key, CHAT_CALLS);
    } finally {
      await mcp.close();
      await bare.close();
    }
  },

  async reservation() {
    const key = sandbox.state.createKey({
      balance: 1_000_000,
      label: 'bench reservation',
      dailyRequestLimit: 1_000_000,
    });
    say(`spend reservation: ${RESERVATION_CALLS} reserve + settle in memory and on Redis, and paid calls…`);
    // A spend limit far above what the bench spends: each paid call reserves and settles.
    const mcp = await startInProcess(sandbox.url, key, { maxSpendUsd: '1000000' });
    try {
      return await measureReservation(mcp, RESERVATION_CALLS);
    } finally {
      await mcp.close();
    }
  },

  async progress() {
    say(`first progress: ${PROGRESS_CALLS} streamed calls…`);
    const paced = await startSandbox({ quiet: true, timing: { streamChunkDelayMs: STREAM_CHUNK_DELAY_MS } });
    const pacedKey = paced.state.createKey({ balance: 1_000_000, label: 'bench' });
    const pacedMcp = await startInProcess(paced.url, pacedKey);
    try {
      return [await measureFirstProgress(pacedMcp, PROGRESS_CALLS, STREAM_CHUNK_DELAY_MS)];
    } finally {
      await pacedMcp.close();
      await paced.close();
    }
  },

  async image() {
    say(`large image: ${IMAGE_ROUNDS} image_generate calls with a 24 MiB image, and as many direct…`);
    const key = sandbox.state.createKey({ balance: 1_000_000, label: 'bench image' });
    return measureLargeImage(sandbox.url, key, IMAGE_ROUNDS, startInProcess);
  },

  async throughput() {
    const out: Figure[] = [];
    for (const era of ['legacy', 'modern'] as const) {
      say(
        `throughput (${era}): ${LOAD.workers} client processes × ${LOAD.sessionsPerWorker} connections, ${RPS_ROUNDS} rounds of ${RPS_WINDOW_MS} ms each…`,
      );
      out.push(
        ...(await measureThroughput(
          {
            args: [ORBIT_BIN, '--http', '--sandbox', '--port', '0'],
            env: { ORBIT_LOG_LEVEL: 'error', ORBIT_RATE_LIMIT: UNREACHED_RATE_LIMIT },
            tool: 'auth_status',
            toolArgs: {},
          },
          { args: [baselines.http, '0'], tool: 'echo', toolArgs: { text: 'hi' } },
          baselines.loadWorker,
          era,
          { ...LOAD, windowMs: RPS_WINDOW_MS },
          RPS_ROUNDS,
        )),
      );
    }
    return out;
  },

  async soak() {
    say(`soak: ${SOAK_CHECKPOINTS.at(-1)} mixed calls from ${SOAK_TENANTS} tenants over HTTP…`);
    const tenants = Array.from({ length: SOAK_TENANTS }, (_, i) =>
      sandbox.state.createKey({ balance: 1_000_000, label: `soak ${i}`, dailyRequestLimit: 1_000_000 }),
    );
    const stdio: Figure[] = [];
    for (const soak of Object.values(STDIO_SOAKS)) {
      say(`soak: ${SOAK_CHECKPOINTS.at(-1)} ${soak.label}…`);
      stdio.push(
        await measureStdioSoak(
          soak,
          {
            args: [ORBIT_BIN],
            env: {
              ORBIT_BASE_URL: sandbox.url,
              ORBIT_API_KEY: sandbox.state.createKey({
                balance: 1_000_000,
                label: `soak ${soak.id}`,
                dailyRequestLimit: 1_000_000,
              }),
              ORBIT_OUTPUT_DIR: BENCH_OUTPUT_DIR,
            },
          },
          { args: [baselines.bundled] },
          SOAK_CHECKPOINTS,
        ),
      );
    }
    return [
      ...stdio,
      await measureSoak(
        { args: [ORBIT_BIN, '--http', '--port', '0', '--base-url', sandbox.url], keys: tenants },
        { args: [baselines.http, '0'] },
        SOAK_CHECKPOINTS,
      ),
    ];
  },

  async flood() {
    say(
      `flood: another key's calls while one key floods, rate limits on and off, 4 rounds of ${RPS_WINDOW_MS} ms…`,
    );
    const key = (label: string) =>
      sandbox.state.createKey({ balance: 1_000_000, label, dailyRequestLimit: 100_000_000 });
    return measureFlood({
      baseUrl: sandbox.url,
      flooder: key('flooder'),
      other: key('other key'),
      worker: baselines.loadWorker,
      windowMs: RPS_WINDOW_MS,
    });
  },

  async replicas() {
    say(`replicas: 1 vs 3 sharing a redis-server, then ${STORE_CALLS} calls each with and without it…`);
    return measureReplicas({
      baseUrl: sandbox.url,
      key: sandbox.state.createKey({ balance: 1_000_000, label: 'replicas', dailyRequestLimit: 10_000_000 }),
      worker: baselines.loadWorker,
      shape: { ...LOAD, windowMs: RPS_WINDOW_MS },
      latencyCalls: STORE_CALLS,
    });
  },
};
try {
  for (const measure of MEASURES) {
    if (wanted(measure)) figures.push(...(await run[measure]()));
  }
} finally {
  await sandbox.close();
}

const environment = {
  generatedAt: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown'}`,
  commit: gitCommit(),
  loadAverage1m: { start: loadAtStart, end: loadavg()[0]! },
};
const table = markdownTable(figures);
if (only) {
  say(`\n${table}\n\n(BENCH_ONLY: docs/benchmarks.md and bench/results.json left as they were)`);
  // What results.json would have held beside each figure (the flood's quiet round, rates served).
  for (const figure of figures) if (figure.details) say(`${figure.id}: ${JSON.stringify(figure.details)}`);
  if (figures.some((figure) => figure.pass === false)) process.exitCode = 1;
  process.exit();
}
await writeResults('bench/results.json', environment, figures);
await writeReadmeBlock(
  'docs/benchmarks.md',
  `${table}\n\nMeasured by \`npm run bench\` on Node ${environment.node}, ${environment.cpus}, load average ${loadAtStart.toFixed(1)} at the start. Baselines: a one-tool SDK server (\`bench/baseline/\`) packaged the same way (\`scripts/bundle.ts\`), and the same \`chat\` request sent straight to the sandbox with undici. Raw samples in \`bench/results.json\`.`,
);
await writeReadmeBlock(
  'README.md',
  readmeSummary(figures, `Measured by \`npm run bench\` on Node ${environment.node}, ${environment.cpus}`),
  'bench-summary',
);
say(`\n${table}\n\nwrote bench/results.json, the table in docs/benchmarks.md and its summary in README.md`);
if (figures.some((figure) => figure.pass === false)) process.exitCode = 1;

function gitCommit(): string | undefined {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}+changes` : head;
  } catch {
    return undefined;
  }
}
