/**
 * `orbit-mcp whoami` and `orbit-mcp logout` from the built binary tell the truth about the
 * credential file when no platform is configured (issue 33 item 2): whoami lists each platform
 * with stored credentials, logout removes one platform's (the configured one or --base-url) or,
 * with --all, every one, and says what it removed. Values never appear.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CredentialStore } from '../../../src/auth/store.js';

const BIN = 'dist/orbit-mcp.js';
const A = 'http://127.0.0.1:8788';
const B = 'https://platform.example';
const KEY = 'sk-orbit-app-whoami-0123456789abcdef';
const TOKEN = 'plain-management-token-0123456789';
const SESSION = 'plain-session-value-0123456789';

let dir: string;
let env: NodeJS.ProcessEnv;
let store: CredentialStore;

beforeAll(async () => {
  if (!existsSync(BIN))
    throw new Error('dist/orbit-mcp.js is missing: run `npm run build` (npm test does it).');
  dir = await mkdtemp(join(tmpdir(), 'orbit-account-cli-'));
  env = { ...process.env, ORBIT_CONFIG_DIR: join(dir, 'config') };
  for (const name of ['ORBIT_BASE_URL', 'ORBIT_API_KEY', 'ORBIT_MANAGEMENT_TOKEN', 'ORBIT_SESSION'])
    delete env[name];
  store = new CredentialStore(join(dir, 'config'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  // What a sign-in on one platform and `login --management-token` / `--session` on another leave.
  store.clear();
  store.set(A, 'api_key', { value: KEY, obtained_at: '2026-03-04T05:06:07.000Z', via: 'sign-in' });
  store.set(B, 'management_token', { value: TOKEN, obtained_at: '2026-02-01T00:00:00.000Z', via: 'cli' });
  store.set(B, 'session', { value: SESSION, via: 'cli' });
});

/** The platforms the credential file holds entries for, read as any program would. */
function storedPlatforms(): string[] {
  const file = join(dir, 'config', 'credentials.json');
  if (!existsSync(file)) return [];
  return Object.keys(JSON.parse(readFileSync(file, 'utf8')).platforms);
}

function run(args: string[], extra: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...env, ...extra } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdin.end();
    child.on('close', (code) => {
      const all = stdout + stderr;
      for (const secret of [KEY, TOKEN, SESSION]) expect(all).not.toContain(secret);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('orbit-mcp whoami', () => {
  it('with no platform configured, lists each platform with stored credentials and where they came from', async () => {
    const { code, stdout } = await run(['whoami']);
    expect(code).toBe(0);
    expect(stdout).toContain('platform: none configured (set ORBIT_BASE_URL, or pass --base-url)');
    expect(stdout).toContain(`  ${A}: api_key (from sign-in, 2026-03-04)`);
    expect(stdout).toContain(
      `  ${B}: management_token (from \`orbit-mcp login\`, 2026-02-01), session (from \`orbit-mcp login\`)`,
    );
    expect(stdout).not.toMatch(/api_key: no/);
  });

  it('with a platform, says what is present for it and names the other platforms stored', async () => {
    const { code, stdout } = await run(['whoami', '--base-url', A]);
    expect(code).toBe(0);
    expect(stdout).toContain(`platform: ${A}`);
    expect(stdout).toContain('api_key: yes (from store)');
    expect(stdout).toContain('management_token: no.');
    expect(stdout).toContain(`also stored: ${B}`);
  });

  it('with nothing stored, says how to sign in', async () => {
    store.clear();
    const { stdout } = await run(['whoami']);
    expect(stdout).toContain(
      'No credentials are stored. Sign in with `orbit-mcp login --base-url <platform address>`',
    );
  });
});

describe('orbit-mcp logout', () => {
  it('with no platform configured, removes nothing and names what is stored and how to choose', async () => {
    const { code, stderr } = await run(['logout']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `No platform configured, so nothing was removed. Stored: api_key for ${A}; management_token, session for ${B}.`,
    );
    expect(stderr).toContain('orbit-mcp logout --all');
    expect(storedPlatforms()).toEqual([A, B]);
  });

  it('--base-url removes that platform only, and says what is still stored', async () => {
    const { code, stderr } = await run(['logout', '--base-url', B]);
    expect(code).toBe(0);
    expect(stderr).toContain(`Removed the stored management_token, session for ${B}.`);
    expect(stderr).toContain(`Still stored: api_key for ${A}`);
    expect(storedPlatforms()).toEqual([A]);
  });

  it('the configured platform (ORBIT_BASE_URL) is the one removed', async () => {
    const { stderr } = await run(['logout'], { ORBIT_BASE_URL: A });
    expect(stderr).toContain(`Removed the stored api_key for ${A}.`);
    expect(storedPlatforms()).toEqual([B]);
  });

  it('--all removes every platform and says what it removed', async () => {
    const { code, stderr } = await run(['logout', '--all']);
    expect(code).toBe(0);
    expect(stderr).toContain(`Removed the stored api_key for ${A}; management_token, session for ${B}.`);
    expect(storedPlatforms()).toEqual([]);
    expect((await run(['logout', '--all'])).stderr).toContain('Nothing was stored.');
  });

  it('--help says the same', async () => {
    const { stderr } = await run(['--help']);
    expect(stderr).toMatch(
      /orbit-mcp logout \[--all\] +remove the stored credentials of the configured platform/,
    );
    expect(stderr).toMatch(
      /orbit-mcp whoami .*\n.*no platform configured, every platform that has stored ones/,
    );
  });
});
