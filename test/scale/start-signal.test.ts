/**
 * A SIGTERM that reaches the HTTP server while it starts (a pod deleted during a rollout, before
 * its store answered) stops it cleanly: it finishes starting, drains at once and exits 0. Before,
 * nothing listened for the signal until the server was up: as process 1 in a container the
 * signal was ignored and the pod ran on until SIGKILL at the end of its grace period (seen with
 * podman kube play, scripts/ci-kube.sh); as any other process it died of the signal.
 * The store's connection is held open by a gate until the signal has been sent, so the signal
 * comes during the start whatever the machine's speed.
 */
import { spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningRedis, startRedis } from './lib/redis.js';

let redis: RunningRedis;
let gate: Server;
let gatePort: number;
/** Resolves when the server has opened its first connection to the store. */
let reached: Promise<void>;
/** Connections held (unanswered) until `release`; after it, each one goes through at once. */
const waiting: Socket[] = [];
const open = new Set<Socket>();
let released = false;

beforeAll(async () => {
  redis = await startRedis();
  gatePort = await freePort();
  let arrived: () => void;
  reached = new Promise((resolve) => {
    arrived = resolve;
  });
  gate = createServer({ pauseOnConnect: true }, (socket) => {
    open.add(socket);
    if (released) through(socket);
    else waiting.push(socket);
    arrived();
  });
  await new Promise<void>((resolve) => gate.listen(gatePort, '127.0.0.1', resolve));
}, 30_000);

afterAll(async () => {
  const closed = new Promise<void>((resolve) => gate?.close(() => resolve()));
  for (const socket of open) socket.destroy();
  await closed;
  await redis?.stop();
});

/** Joins a connection to the real store. */
function through(socket: Socket): void {
  const upstream = connect(redis.port, '127.0.0.1');
  open.add(upstream);
  socket.pipe(upstream).pipe(socket);
  socket.on('error', () => upstream.destroy());
  upstream.on('error', () => socket.destroy());
  socket.resume();
}

function release(): void {
  released = true;
  for (const socket of waiting.splice(0)) through(socket);
}

describe('SIGTERM while the HTTP server starts', () => {
  it('is kept: the server starts, drains and exits 0', async () => {
    const child = spawn(process.execPath, ['dist/orbit-mcp.js', '--http', '--sandbox', '--port', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ORBIT_BASE_URL: '', ORBIT_STORE_URL: `redis://127.0.0.1:${gatePort}` },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    // The server is inside its start: it has opened the store's connection and waits for an answer.
    await reached;
    expect(stderr).not.toContain('listening');
    child.kill('SIGTERM');
    release();
    expect(await exited, stderr).toEqual({ code: 0, signal: null });
    expect(stderr).toContain('listening');
    expect(stderr).toContain('drained');
  }, 30_000);
});
