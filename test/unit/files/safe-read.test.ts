import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forbiddenRoot, usableRoots } from '../../../src/files/root-paths.js';
import { readInside } from '../../../src/files/safe-read.js';

let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'orbit-safe-read-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'sub', 'in.txt'), 'inside');
  await writeFile(join(outside, 'secret.txt'), 'secret');
  await symlink(join(outside, 'secret.txt'), join(root, 'to-outside.txt'));
  await symlink(outside, join(root, 'outside-dir'));
  await symlink(join(root, 'sub', 'in.txt'), join(root, 'to-inside.txt'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('readInside', () => {
  it('reads a regular file inside a root, from the handle it opened', async () => {
    expect(await readInside(join(root, 'sub', 'in.txt'), [root], 100)).toEqual({
      ok: true,
      real: join(root, 'sub', 'in.txt'),
      data: Buffer.from('inside'),
    });
  });

  it('follows a symlink that stays inside, and reports where the file really is', async () => {
    const outcome = await readInside(join(root, 'to-inside.txt'), [root], 100);
    expect(outcome).toMatchObject({ ok: true, real: join(root, 'sub', 'in.txt') });
  });

  it('refuses a symlink, or a symlinked folder, that leads outside', async () => {
    expect(await readInside(join(root, 'to-outside.txt'), [root], 100)).toEqual({
      ok: false,
      reason: 'outside',
    });
    expect(await readInside(join(root, 'outside-dir', 'secret.txt'), [root], 100)).toEqual({
      ok: false,
      reason: 'outside',
    });
  });

  it('refuses folders, devices and FIFOs without hanging on them', async () => {
    expect(await readInside(join(root, 'sub'), [root], 100)).toEqual({ ok: false, reason: 'not_a_file' });
    expect(await readInside('/dev/zero', ['/dev'], 100)).toEqual({ ok: false, reason: 'not_a_file' });
    const fifo = join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await readInside(fifo, [root], 100)).toEqual({ ok: false, reason: 'not_a_file' });
  });

  it('refuses a file over the size before reading it, and a missing one', async () => {
    expect(await readInside(join(root, 'sub', 'in.txt'), [root], 3)).toEqual({
      ok: false,
      reason: 'too_large',
      size: 6,
    });
    expect(await readInside(join(root, 'nope.txt'), [root], 100)).toEqual({ ok: false, reason: 'missing' });
  });
});

describe('roots', () => {
  it('never takes /, the home folder or what contains it, or a system folder as a root', () => {
    expect(forbiddenRoot('/')).toMatch(/root/);
    expect(forbiddenRoot(homedir())).toMatch(/home/);
    expect(forbiddenRoot('/home/ana', '/home/ana')).toMatch(/home/);
    expect(forbiddenRoot('/home', '/home/ana')).toMatch(/home/);
    for (const system of ['/proc', '/proc/self', '/sys/kernel', '/dev', '/dev/shm']) {
      expect(forbiddenRoot(system)).toMatch(/system/);
    }
    expect(forbiddenRoot(join(homedir(), 'projects'))).toBeUndefined();
    expect(forbiddenRoot('/srv/media')).toBeUndefined();
  });

  it('keeps the usable roots as real paths and reports the refused ones', async () => {
    const refused: string[] = [];
    const roots = await usableRoots(['/', root, '/proc', join(base, 'missing'), root], (path) =>
      refused.push(path),
    );
    expect(roots).toEqual([root]);
    expect(refused).toEqual(['/', '/proc']);
  });
});
