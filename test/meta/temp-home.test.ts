/**
 * Every server the suite starts runs with a temporary home and output folder (test/setup/temp-home.ts):
 * here a built server started the way the suite's stdio tests start it (no --output-dir, the
 * SDK's default environment) saves its image under the temporary home, not the person's own.
 */
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const inside = (folder: string, path: string) => !relative(folder, path).startsWith('..');

describe('the suite runs in a temporary home', () => {
  it('gives every worker a temporary HOME and output folder, apart from the real home', () => {
    const tempHome = inject('tempHome');
    expect(inside(tmpdir(), tempHome)).toBe(true);
    expect(homedir()).toBe(tempHome);
    expect(inject('realHome')).not.toBe(tempHome);
    expect(loadConfig({}).outputDir).toBe(join(tempHome, 'orbit-output'));
  });

  it('a server started without an output folder saves its media under the temporary home', async () => {
    const client = new Client({ name: 'temp-home', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['dist/orbit-mcp.js', '--sandbox'],
        stderr: 'ignore',
      }),
    );
    try {
      const image = await client.callTool({
        name: 'image_generate',
        arguments: { model: 'pixel-lite', prompt: 'a fox', resolution: '512x512' },
      });
      expect(image.isError, JSON.stringify(image.content)).toBeFalsy();
      const saved = (image.structuredContent as { images: { path: string }[] }).images[0]!.path;
      expect(inside(inject('tempHome'), saved), saved).toBe(true);
      expect(inside(inject('realHome'), saved), saved).toBe(false);
    } finally {
      await client.close();
    }
  });
});
