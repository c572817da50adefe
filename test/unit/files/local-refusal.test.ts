/**
 * A local path outside the readable folders is refused with the folders that are readable, the
 * output folder among them even before its first file makes it exist (it used to say "(none)").
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFiles } from '../../../src/files/files.js';
import { MediaStore } from '../../../src/files/media-store.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'orbit-refusal-'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

async function refusal(outputDir: string, allowDirs: string[] = []): Promise<string> {
  const files = createFiles(
    { outputDir, allowDirs, media: new MediaStore() },
    { trust: 'local', tenant: 'local' },
  );
  const error = await files.read('/etc/hostname', { maxBytes: 1024, purpose: 'a test' }).then(
    () => undefined,
    (caught: unknown) => caught as Error,
  );
  expect(error?.message).toMatch(/is outside the folders this server may read/);
  return error!.message;
}

describe('refusing a local path outside the readable folders', () => {
  it('names the output folder that does not exist yet, never "none"', async () => {
    const output = join(base, 'not-yet');
    const message = await refusal(output);
    expect(message).toContain(`(${output} (made on the first save))`);
    expect(message).not.toContain('none');
  });

  it('names the output folder and the shared folders once they exist', async () => {
    const output = join(base, 'out');
    const shared = join(base, 'shared');
    await mkdir(output);
    await mkdir(shared);
    expect(await refusal(output, [shared])).toContain(`(${output}, ${shared})`);
  });

  it('names a shared folder first when the output folder is still to be made', async () => {
    const shared = join(base, 'shared-2');
    await mkdir(shared);
    const output = join(base, 'later');
    expect(await refusal(output, [shared])).toContain(`(${shared}, ${output} (made on the first save))`);
  });
});
