/**
 * Replicas of the built server (`dist/orbit-mcp.js --http --store …`) on fixed loopback ports, so
 * one restarted takes its old place behind the proxy. Each one's stderr is kept: the JSON request
 * log lines and anything else it said.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from './redis.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');

export interface ReplicaOptions {
  /** The platform (a sandbox) every replica talks to. */
  baseUrl: string;
  /** Shared store URL; undefined runs the replicas without one (what main does). */
  store?: string;
  /** Each replica writes under its own folder here: nothing is shared through a disk. */
  outputDir: string;
  env?: Record<string, string>;
}

export interface Replica {
  index: number;
  port: number;
  child?: ChildProcess;
  /** Everything it wrote on stderr, every run. */
  stderr: string[];
  /** The JSON request log lines it wrote, parsed (not the audit log's). */
  requests(): Record<string, unknown>[];
}

export class Replicas {
  readonly all: Replica[] = [];

  private constructor(private readonly options: ReplicaOptions) {}

  static async start(count: number, options: ReplicaOptions): Promise<Replicas> {
    const replicas = new Replicas(options);
    for (let index = 0; index < count; index++) {
      const port = await freePort();
      const stderr: string[] = [];
      replicas.all.push({
        index,
        port,
        stderr,
        requests: () =>
          stderr
            .join('')
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            // The audit log shares stderr by default; its lines have an `event` and no `msg`.
            .filter((line) => line.msg === 'http request'),
      });
    }
    await Promise.all(replicas.all.map((replica) => replicas.launch(replica)));
    return replicas;
  }

  get ports(): number[] {
    return this.all.map((replica) => replica.port);
  }

  /** Starts (or starts again) one replica and waits until it says it listens. */
  async launch(replica: Replica): Promise<void> {
    const args = [
      BIN,
      '--http',
      '--host',
      '127.0.0.1',
      '--port',
      String(replica.port),
      '--base-url',
      this.options.baseUrl,
      '--output-dir',
      resolve(this.options.outputDir, `replica-${replica.index}`),
      ...(this.options.store ? ['--store', this.options.store] : []),
    ];
    // Settings by environment, so a build without them (main's, to check a test fails there) still starts.
    const child = spawn(process.execPath, args, {
      env: {
        PATH: process.env.PATH ?? '',
        ORBIT_LOG_LEVEL: 'info',
        ORBIT_REPLICA_ID: `replica-${replica.index}`,
        ...this.options.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    replica.child = child;
    let seen = '';
    await new Promise<void>((resolveStart, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`replica ${replica.index} did not start:\n${seen}`)),
        20_000,
      );
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`replica ${replica.index} exited with ${code}:\n${seen}`));
      });
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        replica.stderr.push(chunk);
        seen = (seen + chunk).slice(-4000);
        if (seen.includes('listening at')) {
          clearTimeout(timer);
          resolveStart();
        }
      });
    });
    child.removeAllListeners('exit');
  }

  /** SIGKILL: the replica stops at once, mid-anything. */
  async kill(replica: Replica): Promise<void> {
    await this.signal(replica, 'SIGKILL');
  }

  /** SIGTERM: the replica drains and exits by itself. */
  async terminate(replica: Replica): Promise<void> {
    await this.signal(replica, 'SIGTERM');
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.all.map((replica) => this.signal(replica, 'SIGKILL')));
  }

  private async signal(replica: Replica, signal: NodeJS.Signals): Promise<void> {
    const child = replica.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill(signal);
    await exited;
  }
}

/** GET a path of one replica; its status and JSON body. */
export async function probe(
  port: number,
  path: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
