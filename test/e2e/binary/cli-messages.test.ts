/**
 * What the built binary says when it is started wrong (`npm test` builds first): a secret given as
 * a flag, the entry file copied without its chunks, and the sandbox's start-up lines.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = 'dist/orbit-mcp.js';
const SECRET = 'sk-orbit-0123456789abcdefghij';
const BARE_SECRET = 'not-a-known-prefix-0123456789';

/** Exit code, stdout and stderr of the binary; `until` ends a long-running one once stderr has it. */
function run(
  args: string[],
  options: { bin?: string; until?: RegExp } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ORBIT_BASE_URL: '', ORBIT_API_KEY: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (options.until?.test(stderr)) child.kill('SIGTERM');
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('a secret given as a flag', () => {
  it.each([
    [['--api-key', SECRET], 'ORBIT_API_KEY'],
    [[`--api-key=${SECRET}`], 'ORBIT_API_KEY'],
    [['--apiKey', BARE_SECRET], 'ORBIT_API_KEY'],
    [['--token', SECRET], 'ORBIT_API_KEY'],
    [['doctor', '--management_token', SECRET], 'ORBIT_MANAGEMENT_TOKEN'],
    [[`--management-token=${SECRET}`, 'login'], 'ORBIT_MANAGEMENT_TOKEN'],
    [['--session-cookie', BARE_SECRET], 'ORBIT_SESSION'],
  ])('%j is refused, naming %s, never echoing the value', async (args, variable) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain(`secrets come from the environment (${variable})`);
    expect(stderr).not.toContain('Unknown option');
    expect(stdout + stderr).not.toContain(SECRET);
    expect(stdout + stderr).not.toContain(BARE_SECRET);
  });

  it('a secret given where a command goes is not echoed', async () => {
    const { code, stderr } = await run([SECRET]);
    expect(code).toBe(2);
    expect(stderr).toContain('Unknown command');
    expect(stderr).not.toContain(SECRET);
  });

  it('a value after login --management-token is refused, not ignored', async () => {
    const { code, stderr } = await run(['login', '--management-token', BARE_SECRET]);
    expect(code).toBe(2);
    expect(stderr).toContain('takes no further arguments');
    expect(stderr).not.toContain(BARE_SECRET);
  });

  it('--management-token outside login says where it belongs', async () => {
    const { code, stderr } = await run(['--management-token', '--sandbox']);
    expect(code).toBe(2);
    expect(stderr).toContain('belong to `orbit-mcp login`');
  });
});

describe('the entry file copied without its chunks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orbit-alone-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says that dist/chunks/ must come with it', async () => {
    copyFileSync(BIN, join(dir, 'orbit-mcp.js'));
    const { code, stderr } = await run(['--version'], { bin: join(dir, 'orbit-mcp.js') });
    expect(code).toBe(1);
    expect(stderr).toContain(`${join(dir, 'chunks')} is missing or incomplete`);
    expect(stderr).toContain('copy the whole dist folder, not the one file');
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

describe('orbit-mcp sandbox', () => {
  it('says once where it listens, with the demo key', async () => {
    const { stderr } = await run(['sandbox', '--port', '0'], { until: /Demo API key: .+\n/ });
    expect(stderr.match(/listening/g)).toHaveLength(1);
    expect(stderr).toMatch(/^Sandbox platform listening at http:\/\/127\.0\.0\.1:\d+$/m);
  });
});
