/**
 * A port that is taken ends the start with a non-zero exit in every mode that listens, and says
 * what to do; with --sandbox, the sandbox it started is closed too (it used to keep the process alive).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = 'dist/orbit-mcp.js';
/** Long enough for a loaded machine to start and fail; a hang is the bug this catches. */
const EXIT_WITHIN_MS = 15_000;

let busy: Server;
let port: number;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  port = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

/** Exit code (or 'hung') and stderr of the built binary with these arguments. */
function run(args: string[]): Promise<{ code: number | 'hung'; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ORBIT_BASE_URL: '', ORBIT_STORE_URL: '' },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: 'hung', stderr });
    }, EXIT_WITHIN_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 'hung', stderr });
    });
  });
}

describe('a listen error at start-up', () => {
  it.each([
    ['--http --sandbox', ['--http', '--sandbox']],
    ['--http', ['--http']],
    ['--http --stateless --sandbox', ['--http', '--stateless', '--sandbox']],
    ['sandbox', ['sandbox']],
  ])('exits 1 with %s on a port in use, naming the port and the fix', async (_name, args) => {
    const { code, stderr } = await run([...args, '--port', String(port)]);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(`port ${port} on 127.0.0.1 is already in use (EADDRINUSE)`);
    expect(stderr).toContain('--port');
    expect(stderr).not.toContain('handles still open');
  });
});
