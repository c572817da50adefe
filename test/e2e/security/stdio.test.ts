/**
 * The local side of the security issue: the built server over stdio, as a desktop assistant starts
 * it, against a separate sandbox (so the test sees every byte sent), with a folder an attacker can
 * write into. Each `it` is one finding that must stay impossible. ORBIT_TEST_BIN picks another build.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { textOf } from '../../helpers/harness.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const PNG_HEAD = Buffer.from('89504e470d0a1a0a', 'hex');

let sandbox: Sandbox;
let key: string;
let scratch: string;
const open: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  key = sandbox.state.createKey({ label: 'desktop user', balance: 5 });
  scratch = await mkdtemp(join(tmpdir(), 'orbit-sec-stdio-'));
});
afterEach(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => {});
});
afterAll(async () => {
  await sandbox?.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The built server over stdio, as an assistant starts it: its folder, its output folder, its roots. */
async function start(options: { cwd?: string; outputDir?: string; roots?: string[] } = {}) {
  const outputDir = options.outputDir ?? (await mkdtemp(join(scratch, 'out-')));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--base-url', sandbox.url, '--output-dir', outputDir, '--log-level', 'error'],
    env: { PATH: process.env.PATH ?? '', ORBIT_API_KEY: key, ORBIT_CONFIG_DIR: join(scratch, 'config') },
    cwd: options.cwd,
    stderr: 'pipe',
  });
  const roots = options.roots;
  const client = new Client(
    { name: 'assistant', version: '1' },
    { capabilities: roots ? { roots: {} } : {} },
  );
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots.map((path) => ({ uri: pathToFileURL(path).href, name: path })),
    }));
  }
  await client.connect(transport);
  open.push(client);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
  return { client, transport, call, outputDir };
}

const sentBodies = () => sandbox.requests.map((request) => request.body).join('\n');

describe('the local server, attacked', () => {
  it('started in / (as desktop assistants do), it reads no system file', async () => {
    const server = await start({ cwd: '/' });
    sandbox.clearRequests();
    for (const file of ['/etc/passwd', 'etc/passwd', '/proc/self/environ', '~/.bashrc']) {
      const result = await server.call('transcribe', { file });
      expect(result.isError, `${file}: ${textOf(result)}`).toBe(true);
    }
    expect(sandbox.requests.filter((r) => r.path.includes('transcri'))).toEqual([]);
  });

  it('survives a message over its size limit, answers it, and serves the next call', async () => {
    const server = await start();
    // An 8 MB reference image as a data URL (the spec allows references up to 30 MB).
    const image = Buffer.concat([PNG_HEAD, Buffer.alloc(8 * 1_048_576, 7)]);
    const big = await server.call('image_generate', {
      model: 'sandbox/image-edit',
      prompt: 'combine',
      input_references: [`data:image/png;base64,${image.toString('base64')}`],
    });
    expect(big.isError, textOf(big)).toBeFalsy();
    // 70 MB in one message is over the limit: a JSON-RPC error that says what to do instead.
    const huge = `data:image/png;base64,${Buffer.alloc(52 * 1_048_576, 1).toString('base64')}`;
    await expect(
      server.call('image_generate', { model: 'sandbox/image-edit', prompt: 'x', input_references: [huge] }),
    ).rejects.toThrow(/limit of 64 MB.*file path or an https URL/);
    const after = await server.call('auth_status', {});
    expect(after.isError).toBeFalsy();
    expect(server.transport.pid).not.toBeNull();
  });

  it('never sends bytes from outside its roots, even when a folder is swapped for a symlink mid-read', async () => {
    const root = await mkdtemp(join(scratch, 'root-'));
    const outside = await mkdtemp(join(scratch, 'outside-'));
    await mkdir(join(root, 'photos'));
    await writeFile(
      join(root, 'photos', 'cat.png'),
      Buffer.concat([PNG_HEAD, Buffer.from('INSIDE-PICTURE')]),
    );
    await writeFile(join(outside, 'cat.png'), Buffer.concat([PNG_HEAD, Buffer.from('OUTSIDE-SECRET')]));
    const server = await start({ roots: [root] });
    sandbox.clearRequests();

    // The attacker flips `photos` between the real folder and a symlink to the outside, nonstop.
    let swapping = true;
    const swapper = (async () => {
      const real = join(root, 'photos');
      const aside = join(root, '.photos-real');
      while (swapping) {
        await rename(real, aside).catch(() => {});
        await symlink(outside, real).catch(() => {});
        await new Promise((r) => setImmediate(r));
        await unlink(real).catch(() => {});
        await rename(aside, real).catch(() => {});
        await new Promise((r) => setImmediate(r));
      }
    })();
    let sent = 0;
    try {
      for (let i = 0; i < 400; i++) {
        const result = await server.call('image_edit', {
          prompt: 'x',
          images: [join(root, 'photos', 'cat.png')],
        });
        if (!result.isError) sent++;
      }
    } finally {
      swapping = false;
      await swapper;
    }
    // image_edit uploads the bytes as multipart: the markers travel as they are.
    const bodies = sentBodies();
    expect(bodies).not.toContain('OUTSIDE-SECRET');
    // The race was real: some reads went through with the inside picture.
    expect(sent).toBeGreaterThan(0);
    expect(bodies).toContain('INSIDE-PICTURE');
  });

  it('reads a file:// URI as the path it names, judged by the same roots', async () => {
    const root = await mkdtemp(join(scratch, 'uri root '));
    const outside = await mkdtemp(join(scratch, 'uri-outside-'));
    await writeFile(join(root, 'my cat.png'), Buffer.concat([PNG_HEAD, Buffer.from('URI-INSIDE')]));
    await writeFile(join(outside, 'cat.png'), Buffer.concat([PNG_HEAD, Buffer.from('URI-OUTSIDE')]));
    const server = await start({ roots: [root] });
    sandbox.clearRequests();
    const edit = (uri: string) => server.call('image_edit', { prompt: 'x', images: [uri] });

    // Percent-encoded (the space in both names), as clients write them; and the localhost form.
    const encoded = pathToFileURL(join(root, 'my cat.png')).href;
    expect(encoded).toContain('%20');
    for (const uri of [encoded, encoded.replace('file://', 'file://localhost')]) {
      const result = await edit(uri);
      expect(result.isError, `${uri}: ${textOf(result)}`).toBeFalsy();
    }
    expect(sentBodies()).toContain('URI-INSIDE');

    const outsideUri = await edit(pathToFileURL(join(outside, 'cat.png')).href);
    expect(textOf(outsideUri)).toContain('is outside the folders this server may read');
    const otherHost = await edit(`file://fileserver${join(root, 'my%20cat.png')}`);
    expect(textOf(otherHost)).toContain('is not a file URI of this machine');
    const encodedSlash = await edit(`file://${root.replaceAll('/', '%2F')}%2Fmy%20cat.png`);
    expect(encodedSlash.isError).toBe(true);
    expect(sentBodies()).not.toContain('URI-OUTSIDE');
  });

  it('serves no file planted in its output folder, and writes through no planted symlink', async () => {
    const outputDir = await mkdtemp(join(scratch, 'shared-out-'));
    const victim = join(scratch, 'victim.txt');
    await writeFile(victim, 'precious');
    // Learn what the server would write (its speech output is deterministic) in a folder of its own.
    const probe = await start();
    const first = await probe.call('speech_generate', { text: 'Planted?', model: 'tts-mini', format: 'wav' });
    const bytes = await readFile((first.structuredContent as { path: string }).path);
    const contentName = createHash('sha256').update(bytes).digest('hex').slice(0, 20);

    // The attacker plants symlinks where the server might write or serve.
    await symlink(victim, join(outputDir, `${contentName}.wav`));
    await symlink('/etc/passwd', join(outputDir, 'aaaaaaaaaaaaaaaaaaaa.txt'));
    await symlink('/etc/passwd', join(outputDir, `${'b'.repeat(32)}.txt`));
    const server = await start({ outputDir });
    const made = await server.call('speech_generate', { text: 'Planted?', model: 'tts-mini', format: 'wav' });
    expect(made.isError, textOf(made)).toBeFalsy();
    const saved = (made.structuredContent as { path: string }).path;
    expect((await lstat(saved)).isSymbolicLink()).toBe(false);
    expect(await readFile(saved)).toEqual(bytes);
    expect(await readFile(victim, 'utf8')).toBe('precious');

    const listed = (await server.client.listResources()).resources.map((r) => r.uri);
    expect(listed.some((uri) => uri.includes('aaaaaaaa') || uri.includes('bbbbbbbb'))).toBe(false);
    for (const id of ['aaaaaaaaaaaaaaaaaaaa', 'b'.repeat(32), contentName]) {
      await expect(server.client.readResource({ uri: `orbit://media/${id}` })).rejects.toThrow(
        /No saved media/,
      );
    }
  });

  it('redacts its own key when the platform echoes it into a result', async () => {
    const server = await start();
    sandbox.faults.add({
      match: { path: '/api/v1/chat/completions' },
      status: 401,
      code: 'invalid_api_key',
      message: `Invalid API key ${key}`,
    });
    const result = await server.call('chat', { model: 'openai/gpt-sandbox', prompt: 'hi' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain(key);
    expect(textOf(result)).toContain('[redacted]');
  });
});
