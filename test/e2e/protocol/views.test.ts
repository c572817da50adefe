/**
 * MCP Apps over both protocol eras and transports: a host that declares the extension sees each
 * view named in `_meta.ui.resourceUri` and reads it; a client without it gets today's listing;
 * the media a view shows are read through the host, from the caller's own results.
 */
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

async function connect(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
  era: string,
  views: boolean,
) {
  const client = new Client(
    { name: `views-${era}`, version: '1' },
    { ...(era === 'modern' ? MODERN : {}), capabilities: views ? UI : {} },
  );
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

/** What a host does: finds the tool's view, reads it, and reads the media the result names. */
async function hostJourney(client: Client) {
  const { tools } = await client.listTools();
  const image = tools.find((tool) => tool.name === 'image_generate')!;
  expect(image._meta).toEqual({ ui: { resourceUri: 'ui://orbit/gallery' } });
  expect(tools.filter((tool) => tool._meta).length).toBeGreaterThanOrEqual(12);
  const view = await client.readResource({ uri: 'ui://orbit/gallery' });
  const content = view.contents[0]!;
  expect(content.mimeType).toBe('text/html;profile=mcp-app');
  const html = 'text' in content ? content.text : '';
  expect(html).toMatch(/^<!doctype html>/);
  // Self-contained: nothing is fetched from anywhere.
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import|url\(http/);
  expect(content._meta).toMatchObject({
    ui: { csp: { resourceDomains: [expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/)] } },
  });
  const made = await client.callTool({
    name: 'image_generate',
    arguments: { model: 'pixel-lite', prompt: 'a fox' },
  });
  const uri = (made.structuredContent as { images: { uri: string }[] }).images[0]!.uri;
  const media = await client.readResource({ uri });
  expect(media.contents[0]).toMatchObject({ mimeType: 'image/png', blob: expect.any(String) });
  // Only the six views are served: no name reaches another file.
  for (const name of ['../package.json', '..%2F..%2Fpackage.json', 'gallery.html']) {
    await expect(client.readResource({ uri: `ui://orbit/${name}` })).rejects.toThrow(/No view/);
  }
}

describe('MCP Apps views over stdio and HTTP, both eras', () => {
  let http: { url: string; child: ChildProcess };
  beforeAll(async () => {
    http = await startHttpServer([BIN, '--http', '--sandbox', '--port', '0']);
  });
  afterAll(async () => {
    if (http) await stopProcess(http.child);
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`a ${era === 'modern' ? '2026-07-28' : '2025'} host over HTTP finds, reads and fills a view`, async () => {
      const client = await connect(new StreamableHTTPClientTransport(new URL(http.url)), era, true);
      try {
        await hostJourney(client);
      } finally {
        await client.close();
      }
    });

    it(`a ${era === 'modern' ? '2026-07-28' : '2025'} client without the extension gets the listing without the view links`, async () => {
      const client = await connect(new StreamableHTTPClientTransport(new URL(http.url)), era, false);
      try {
        const { tools } = await client.listTools();
        // Other _meta keys (listing hints such as anthropic/alwaysLoad) stay; only the view link is for hosts.
        expect(tools.filter((tool) => tool._meta?.ui !== undefined)).toEqual([]);
        expect(tools.some((tool) => tool._meta?.['anthropic/alwaysLoad'] === true)).toBe(true);
      } finally {
        await client.close();
      }
    });
  }

  it('a 2026-07-28 host over stdio finds, reads and fills a view', async () => {
    const client = await connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, '--sandbox'], stderr: 'pipe' }),
      'modern',
      true,
    );
    try {
      await hostJourney(client);
    } finally {
      await client.close();
    }
  });
});
