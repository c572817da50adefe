/**
 * `file://` inputs, in process: a URI is the path it names, then judged by the same rules, so over
 * HTTP it reads only inside folders the operator shared (--allow-dir) and is refused elsewhere.
 * The built binary over stdio and HTTP is covered in security-stdio and security-http.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from '../../helpers/harness.js';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('SHARED-PICTURE')]);

let shared: string;
let harness: Harness;

beforeAll(async () => {
  shared = await mkdtemp(join(tmpdir(), 'orbit-shared '));
  await writeFile(join(shared, 'a cat.png'), PNG);
  harness = await startHarness({ trust: 'remote', allowDirs: [shared] });
});
afterAll(async () => {
  await harness?.close();
  await rm(shared, { recursive: true, force: true });
});

const edit = (uri: string) => harness.call('image_edit', { prompt: 'x', images: [uri] });

describe('file:// inputs for a remote client', () => {
  it('reads a percent-encoded file:// URI inside a folder the operator shared', async () => {
    harness.sandbox.clearRequests();
    const result = await edit(pathToFileURL(join(shared, 'a cat.png')).href);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(harness.sandbox.requests.map((request) => request.body).join('\n')).toContain('SHARED-PICTURE');
  });

  it('refuses a file:// URI outside the shared folders exactly as it refuses the path', async () => {
    const byUri = await edit('file:///etc/hostname');
    const byPath = await edit('/etc/hostname');
    expect(byUri.isError).toBe(true);
    expect(textOf(byUri)).toBe(textOf(byPath));
  });

  it('refuses a file URI of another machine', async () => {
    const result = await edit(`file://fileserver${pathToFileURL(join(shared, 'a cat.png')).pathname}`);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('is not a file URI of this machine');
  });
});
