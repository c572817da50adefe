/**
 * Shell lines in the docs that a person pastes to start something in the background give the
 * shell back: each `redis-server` line is run as written (on a free port) and must return, with
 * Redis then answering.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, redisServerPath } from '../scale/lib/redis.js';

/** A line a person pastes may block; this long means it did (a loaded machine returns far sooner). */
const RETURNS_WITHIN_MS = 15_000;

function shellLines(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split('\n'));
}

const pages = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];
const redisLines = pages.flatMap((page) =>
  shellLines(page)
    .filter((line) => /^redis-server\b/.test(line.trim()))
    .map((line) => ({ page, line: line.trim() })),
);

/** One Redis command over a plain connection; its first reply line. */
function ask(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
    socket.setEncoding('utf8');
    socket.once('data', (data: string) => {
      socket.end();
      resolve(data.split('\r\n')[0]!);
    });
    socket.once('error', reject);
    // SHUTDOWN closes the connection without a reply.
    socket.once('close', () => resolve(''));
  });
}

async function askUntilUp(port: number, command: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await ask(port, command);
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('shell lines in the docs', () => {
  it('include the Redis lines of the replica guides', () => {
    expect(redisLines.map((l) => l.page)).toEqual(expect.arrayContaining(['docs/remote-http.md']));
  });

  it.each(redisLines)('$page: the redis-server line gives the shell back', async ({ line }) => {
    redisServerPath();
    const port = await freePort();
    const command = line.replaceAll('6379', String(port));
    const shell = spawn('bash', ['-c', command], { stdio: 'ignore', detached: true });
    const returned = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), RETURNS_WITHIN_MS);
      shell.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    try {
      expect(returned, `\`${line}\` blocks the shell it is pasted into`).toBe(true);
      expect(await askUntilUp(port, 'PING')).toBe('+PONG');
    } finally {
      if (!returned) process.kill(-shell.pid!, 'SIGKILL');
      await ask(port, 'SHUTDOWN NOSAVE').catch(() => {});
    }
  });
});
