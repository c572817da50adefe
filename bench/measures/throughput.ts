import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { startHttpServer, stopProcess } from '../../scripts/lib/http-server.js';
import { childEnv } from '../lib/child.js';
import type { Figure } from '../lib/figure.js';
import { round } from '../lib/stats.js';

export interface HttpContender {
  args: string[];
  env?: Record<string, string>;
  tool: string;
  toolArgs: Record<string, unknown>;
  key?: string;
}

export interface LoadShape {
  workers: number;
  sessionsPerWorker: number;
  /** Calls in flight per session (default 1). */
  loopsPerSession?: number;
  warmupMs: number;
  windowMs: number;
}

/** CPU time (user + system) a process has used, in ms, from the kernel's view (Linux). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Load on `url` from `workers` client processes: when its window opens and closes, and its count. */
export interface Load {
  from: number;
  until: number;
  done: Promise<{ calls: number; failed: number }>;
}

/**
 * Starts the load processes and opens their window once every one has connected all its sessions
 * (each says `ready` on stdout; the start time then goes to each on stdin), so a slow machine
 * delays the window instead of shortening it: a fixed head start once let workers begin after the
 * window had closed, and the figure read ~0 calls/s (bench/NOTES.md).
 */
export async function startLoad(
  url: string,
  contender: Pick<HttpContender, 'tool' | 'toolArgs' | 'key'>,
  worker: string,
  era: 'legacy' | 'modern',
  shape: LoadShape,
): Promise<Load> {
  const workers = Array.from({ length: shape.workers }, () =>
    runWorker(worker, [
      url,
      era,
      String(shape.sessionsPerWorker),
      contender.tool,
      JSON.stringify(contender.toolArgs),
      'stdin',
      String(shape.warmupMs),
      String(shape.windowMs),
      contender.key ?? '',
      String(shape.loopsPerSession ?? 1),
    ]),
  );
  const done = Promise.all(workers.map((w) => w.done)).then((results) => ({
    calls: results.reduce((sum, r) => sum + r.counted, 0),
    failed: results.reduce((sum, r) => sum + r.failed, 0),
  }));
  // A worker that fails while connecting rejects `done` first: waiting for its `ready` would hang.
  await Promise.race([Promise.all(workers.map((w) => w.ready)), done.then(() => {})]);
  // Every loop begins at the same moment, so the warm-up and window line up.
  const startAt = Date.now() + 200;
  for (const w of workers) w.start(startAt);
  const from = startAt + shape.warmupMs;
  return { from, until: from + shape.windowMs, done };
}

/** One round: the server, `workers` load processes, and the server's CPU over the window. */
async function round_(contender: HttpContender, worker: string, era: 'legacy' | 'modern', shape: LoadShape) {
  const { url, child } = await startHttpServer(contender.args, { env: childEnv(contender.env) });
  try {
    const load = await startLoad(url, contender, worker, era, shape);
    await sleepUntil(load.from);
    const cpuFrom = await cpuMs(child.pid!);
    await sleepUntil(load.until);
    const cpuUntil = await cpuMs(child.pid!);
    const { calls, failed } = await load.done;
    if (failed > 0) throw new Error(`${failed} calls of ${contender.tool} failed under load`);
    return { rps: calls / (shape.windowMs / 1000), cpuPerCallMs: (cpuUntil - cpuFrom) / Math.max(1, calls) };
  } finally {
    await stopProcess(child);
  }
}

interface Worker {
  /** Resolves once the worker has connected all its sessions. */
  ready: Promise<void>;
  /** Tells it when its loops begin (epoch ms). */
  start(at: number): void;
  done: Promise<{ counted: number; failed: number }>;
}

function runWorker(script: string, args: string[]): Worker {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let readied: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    readied = resolve;
  });
  child.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.startsWith('ready\n')) readied();
  });
  child.stderr.on('data', (chunk) => {
    err = (err + chunk).slice(-2000);
  });
  const done = new Promise<{ counted: number; failed: number }>((resolve, reject) => {
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').at(-1)!));
      else reject(new Error(`load worker exited ${code}: ${err}`));
    });
  });
  return {
    ready,
    start: (at) => child.stdin.end(`${at}\n`),
    done,
  };
}

export const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/**
 * Calls per second and the server's CPU per call, orbit-mcp against the bare SDK server under the
 * same load from several client processes, in one protocol era. `rounds` rounds each, in ABBA
 * order, so a slow moment of the machine does not land on one side only; the best round of each is
 * reported (on a shared 2-cpu machine two rounds each moved the ratio by ±0.05 between runs).
 */
export async function measureThroughput(
  orbit: HttpContender,
  baseline: HttpContender,
  worker: string,
  era: 'legacy' | 'modern',
  shape: LoadShape,
  rounds = 4,
): Promise<Figure[]> {
  const seen: Record<'orbit' | 'baseline', { rps: number; cpuPerCallMs: number }[]> = {
    orbit: [],
    baseline: [],
  };
  const order = Array.from({ length: rounds }, (_, i) =>
    i % 2 === 0 ? (['orbit', 'baseline'] as const) : (['baseline', 'orbit'] as const),
  ).flat();
  for (const name of order) {
    seen[name].push(await round_(name === 'orbit' ? orbit : baseline, worker, era, shape));
  }
  const best = (name: 'orbit' | 'baseline') => seen[name].reduce((a, b) => (b.rps > a.rps ? b : a));
  const o = best('orbit');
  const b = best('baseline');
  const label = era === 'modern' ? '2026-07-28 (no sessions)' : '2025 sessions';
  const load = `${shape.workers} client processes × ${shape.sessionsPerWorker} connections`;
  return [
    {
      id: `http_rps_${era}`,
      measure: `Calls/s over HTTP, ${label}, ${load} (${orbit.tool} vs the bare SDK server's echo)`,
      unit: 'calls/s',
      orbit: round(o.rps, 0),
      baseline: round(b.rps, 0),
      ratio: round(o.rps / b.rps),
      target: '≥ 1.0×',
      pass: o.rps / b.rps >= 1.0,
      details: { rounds: seen, windowMs: shape.windowMs },
    },
    {
      id: `http_cpu_per_call_${era}`,
      measure: `Server CPU per call over HTTP, ${label}`,
      unit: 'ms',
      orbit: round(o.cpuPerCallMs, 3),
      baseline: round(b.cpuPerCallMs, 3),
      ratio: round(o.cpuPerCallMs / b.cpuPerCallMs),
      target: '≤ 1.1×',
      pass: o.cpuPerCallMs / b.cpuPerCallMs <= 1.1,
    },
  ];
}
