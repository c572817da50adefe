/**
 * A real redis-server (Debian's package) on a free loopback port, with no persistence, for the
 * scale tests. A machine without it fails the tests with how to install it: never a silent skip.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface RunningRedis {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function redisServerPath(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'redis-server is not installed: the scale tests need it. Install it with `sudo apt-get install -y redis-server` (Debian/Ubuntu); .ci/run does.',
    );
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<RunningRedis> {
  const binary = redisServerPath();
  const port = await freePort();
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 10 s:\n${seen}`)), 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${seen}`));
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      seen = (seen + chunk).slice(-4000);
      if (seen.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
