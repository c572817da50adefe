import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialStore, defaultConfigDir } from '../../src/auth/store.js';

describe('credential store', () => {
  let root: string;
  let dir: string;
  const warnings: string[] = [];
  const store = () => new CredentialStore(dir, (message) => warnings.push(message));

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'orbit-store-'));
    dir = join(root, 'orbit-mcp');
    warnings.length = 0;
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes a 0600 file in a 0700 directory, atomically, with no temp file left', async () => {
    store().set('https://p.example', 'api_key', { value: 'sk-secret-1', via: 'sign-in' });
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['credentials.json']);
    expect(JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8'))).toEqual({
      version: 1,
      platforms: { 'https://p.example': { api_key: { value: 'sk-secret-1', via: 'sign-in' } } },
    });
  });

  it('keeps entries per platform, so a key is only used where it was issued', () => {
    const s = store();
    s.set('https://a.example', 'api_key', { value: 'key-a' });
    s.set('https://b.example', 'management_token', { value: 'mt-b' });
    expect(s.get('https://a.example', 'api_key')?.value).toBe('key-a');
    expect(s.get('https://b.example', 'api_key')).toBeUndefined();
    expect(s.kinds('https://b.example')).toEqual(['management_token']);
  });

  it('deletes a rejected value only if it is still the stored one', () => {
    const s = store();
    s.set('https://a.example', 'api_key', { value: 'new-key' });
    expect(s.delete('https://a.example', 'api_key', 'old-key')).toBe(false);
    expect(s.get('https://a.example', 'api_key')?.value).toBe('new-key');
    expect(s.delete('https://a.example', 'api_key', 'new-key')).toBe(true);
    expect(s.kinds('https://a.example')).toEqual([]);
  });

  it('sees a change made by another process', async () => {
    const a = store();
    expect(a.get('https://a.example', 'api_key')).toBeUndefined();
    store().set('https://a.example', 'api_key', { value: 'from-cli' });
    expect(a.get('https://a.example', 'api_key')?.value).toBe('from-cli');
  });

  it('loses no entry when several processes write at the same time', async () => {
    const writers = ['a', 'b', 'c', 'd'];
    const writer = fileURLToPath(new URL('./fixtures/store-writer.ts', import.meta.url));
    await Promise.all(
      writers.map(
        (prefix) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, prefix, '25'], {
              stdio: ['ignore', 'ignore', 'pipe'],
            });
            let stderr = '';
            child.stderr.on('data', (chunk) => {
              stderr += chunk;
            });
            child.on('exit', (code) =>
              code === 0 ? resolve() : reject(new Error(`writer ${prefix}: ${stderr}`)),
            );
          }),
      ),
    );
    const file = JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8'));
    expect(Object.keys(file.platforms)).toHaveLength(writers.length * 25);
    expect(await readdir(dir)).toEqual(['credentials.json']);
  });

  it('takes over a lock left behind by a process that died holding it', async () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const lock = join(dir, 'credentials.json.lock');
    await writeFile(lock, '');
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(lock, longAgo, longAgo);
    store().set('https://a.example', 'api_key', { value: 'after-crash' });
    expect(store().get('https://a.example', 'api_key')?.value).toBe('after-crash');
    expect(await readdir(dir)).toEqual(['credentials.json']);
  });

  it('reads a corrupt file as empty, warns once, and moves it aside before writing', async () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await writeFile(
      join(dir, 'credentials.json'),
      '{"version":1,"platforms":{"x":{"api_key":{"value":""}}}}',
      { mode: 0o600 },
    );
    const s = store();
    expect(s.get('x', 'api_key')).toBeUndefined();
    expect(s.get('x', 'api_key')).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('unexpected content at platforms.x.api_key.value');
    s.set('x', 'api_key', { value: 'fresh' });
    const files = await readdir(dir);
    expect(files.filter((f) => f.startsWith('credentials.json.corrupt-'))).toHaveLength(1);
    expect(s.get('x', 'api_key')?.value).toBe('fresh');
  });

  it('forgets one platform, or clears the whole file', () => {
    const s = store();
    s.set('https://a.example', 'api_key', { value: 'a' });
    s.set('https://a.example', 'session', { value: 's' });
    s.set('https://b.example', 'api_key', { value: 'b' });
    expect(s.forget('https://a.example')).toEqual(['api_key', 'session']);
    expect(s.kinds('https://b.example')).toEqual(['api_key']);
    expect(s.clear()).toBe(true);
    expect(s.clear()).toBe(false);
  });

  it('lives in ORBIT_CONFIG_DIR when set, else the per-user config folder', () => {
    expect(defaultConfigDir({ ORBIT_CONFIG_DIR: '/tmp/x' })).toBe('/tmp/x');
    expect(defaultConfigDir({})).toMatch(/orbit-mcp$/);
  });
});
