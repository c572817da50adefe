import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BENCH_OUTPUT_DIR } from './paths.js';

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'orbit-bench', version: '1.0.0' },
  },
};

/**
 * The load measures drive one key (or a few) from one address as fast as calls return: a flood by
 * the request-rate limits' own measure. Limits this high are counted on every request (what they
 * cost is in the figures) and never reached.
 */
export const UNREACHED_RATE_LIMIT = 'key=1000000/s,address=1000000/s,paid=1000000/s';

/**
 * The environment children get: ours without ORBIT_* (the bench sets what it means) and without
 * NODE_OPTIONS (tsx may put its loader there, which would be timed as start-up). Media a child
 * saves goes to the bench's scratch folder, never the person's ~/orbit-output.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('ORBIT_') || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return { ...env, ORBIT_OUTPUT_DIR: resolve(BENCH_OUTPUT_DIR), ...extra };
}

/** A child speaking newline-delimited JSON-RPC on stdio, as MCP's stdio transport does. */
export class StdioChild {
  readonly process: ChildProcess;
  private buffer = '';
  private stderr = '';
  private waiters = new Map<number, (message: Record<string, unknown>) => void>();
  private exited: Promise<number | null>;

  constructor(command: string, args: string[], env: NodeJS.ProcessEnv) {
    this.process = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.process.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.onData(chunk));
    this.process.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      // Keep only the tail: it is shown when the child fails, and must not grow without bound.
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    this.exited = new Promise((resolve) => this.process.once('exit', (code) => resolve(code)));
  }

  send(message: object): void {
    this.process.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  /** Resolves with the reply to request `id` and the moment it arrived; rejects on exit or timeout. */
  reply(id: number, timeoutMs = 15_000): Promise<{ message: Record<string, unknown>; at: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(this.failure(`no reply to request ${id} in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.exited.then((code) => reject(this.failure(`exited with code ${code} before replying to ${id}`)));
      this.waiters.set(id, (message) => {
        clearTimeout(timer);
        resolve({ message, at: performance.now() });
      });
    });
  }

  /** Resident set size in KiB, from the kernel's view of the child (Linux). */
  async rssKiB(): Promise<number> {
    const status = await readFile(`/proc/${this.process.pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (!match) throw new Error('VmRSS not found in /proc/<pid>/status');
    return Number(match[1]);
  }

  /** Closes stdin (the graceful end of a stdio session), then kills if the child lingers. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.process.stdin!.end();
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 3_000);
    await this.exited;
    clearTimeout(timer);
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
      if (!line) continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      const waiter = typeof message.id === 'number' ? this.waiters.get(message.id) : undefined;
      if (waiter && typeof message.id === 'number') {
        this.waiters.delete(message.id);
        waiter(message);
      }
    }
  }

  private failure(what: string): Error {
    return new Error(`${this.process.spawnargs.join(' ')}: ${what}\n${this.stderr}`);
  }
}
