import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SharedMedia } from '../../../src/files/media-shared.js';
import { MediaStore } from '../../../src/files/media-store.js';
import { MemoryStore } from '../../../src/store/memory.js';

const PNG = { mimeType: 'image/png', ext: 'png' };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orbit-media-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('MediaStore', () => {
  it('gives every file a random id, even for the same bytes, and writes it private', async () => {
    const store = new MediaStore();
    const a = await store.write(dir, 'local', Buffer.from('same'), PNG);
    const b = await store.write(dir, 'local', Buffer.from('same'), PNG);
    expect(a.id).toMatch(/^[a-f0-9]{32}$/);
    expect(b.id).not.toBe(a.id);
    expect((await stat(a.path)).mode & 0o777).toBe(0o600);
  });

  it('shows a tenant its own files only', async () => {
    const store = new MediaStore();
    const mine = await store.write(dir, 'tenant-a', Buffer.from('a'), PNG);
    await store.write(dir, 'tenant-b', Buffer.from('b'), PNG);
    expect((await store.list('tenant-a')).map((e) => e.id)).toEqual([mine.id]);
    expect(store.get('tenant-b', mine.id)).toBeUndefined();
    expect(await store.read('tenant-b', mine.id)).toBeUndefined();
    expect(await store.read('tenant-a', mine.id)).toMatchObject({ data: Buffer.from('a') });
  });

  it('serves nothing once the file was swapped for a symlink or another file', async () => {
    const store = new MediaStore();
    const swapped = await store.write(dir, 'local', Buffer.from('mine'), PNG);
    await unlink(swapped.path);
    await symlink('/etc/passwd', swapped.path);
    expect(await store.read('local', swapped.id)).toBeUndefined();
    const replaced = await store.write(dir, 'local', Buffer.from('mine'), PNG);
    await unlink(replaced.path);
    await writeFile(replaced.path, 'planted');
    expect(await store.read('local', replaced.id)).toBeUndefined();
  });

  it('forgets the oldest files past its bounds, and deletes them where told to', async () => {
    const store = new MediaStore({ perTenant: 2 }, (entry) => entry.tenant !== 'local');
    const remote = [];
    for (const n of [1, 2, 3]) remote.push(await store.write(dir, 'remote', Buffer.from(`r${n}`), PNG));
    expect((await store.list('remote')).map((e) => e.id)).toEqual([remote[2]!.id, remote[1]!.id]);
    await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(remote[0]!.path)).toBe(false);
    const local = [];
    for (const n of [1, 2, 3]) local.push(await store.write(dir, 'local', Buffer.from(`l${n}`), PNG));
    expect(store.get('local', local[0]!.id)).toBeUndefined();
    expect(existsSync(local[0]!.path)).toBe(true);
  });

  it('bounds the bytes a tenant keeps', async () => {
    const store = new MediaStore({ bytesPerTenant: 10 });
    const first = await store.write(dir, 't', Buffer.alloc(6), PNG);
    await store.write(dir, 't', Buffer.alloc(6), PNG);
    expect(store.get('t', first.id)).toBeUndefined();
  });

  it('with a shared store, lists and serves a file another replica wrote, to its tenant only', async () => {
    const store = new MemoryStore();
    const a = new MediaStore({}, () => false, new SharedMedia(store));
    const b = new MediaStore({}, () => false, new SharedMedia(store));
    const mine = await a.write(dir, 'tenant-a', Buffer.from('made on a'), PNG);
    expect((await b.list('tenant-a')).map((e) => e.id)).toEqual([mine.id]);
    expect(await b.read('tenant-a', mine.id)).toMatchObject({ data: Buffer.from('made on a') });
    expect(await b.read('tenant-b', mine.id)).toBeUndefined();
    expect(await b.list('tenant-b')).toEqual([]);
    await store.close();
  });

  it('with a shared store, lists a file too large to share with its URL instead of its bytes', async () => {
    const store = new MemoryStore();
    const a = new MediaStore({}, () => false, new SharedMedia(store, { maxFileBytes: 4 }));
    const b = new MediaStore({}, () => false, new SharedMedia(store, { maxFileBytes: 4 }));
    const big = await a.write(dir, 't', Buffer.from('too large'), PNG, 'https://cdn.example/v.mp4');
    expect(await b.read('t', big.id)).toMatchObject({
      tooLarge: true,
      entry: { url: 'https://cdn.example/v.mp4' },
    });
    expect(await a.read('t', big.id)).toMatchObject({ data: Buffer.from('too large') });
    await store.close();
  });
});
