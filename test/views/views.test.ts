/**
 * The MCP Apps views in a real headless Chromium: a test host page built on ext-apps' AppBridge
 * shows each view with a real tool result from the built server on its sandbox (over stdio), and
 * bridges the view's requests to a real MCP client. Assertions read the rendered page.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import jsQR from 'jsqr';
import type { Browser, Frame, Page } from 'playwright-core';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, skipBrowserTests } from '../auth/browser.js';
import { recordOutcome } from '../helpers/harness.js';

const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const WIDTH = 320;

let browser: Browser;
let client: Client;
let outputDir: string;
let hostScript: string;
let tools: Tool[];
/** Every tools/call a view asked its host for, with its arguments. */
const asked: { name: string; arguments: Record<string, unknown> }[] = [];

describe.skipIf(skipBrowserTests)('MCP Apps views in Chromium', () => {
  beforeAll(async () => {
    outputDir = await mkdtemp(join(tmpdir(), 'orbit-views-'));
    client = new Client({ name: 'orbit-view-host', version: '1.0.0' }, { capabilities: { extensions: UI } as never });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [resolve('dist/orbit-mcp.js'), '--sandbox', '--toolsets', 'all'],
        env: { PATH: process.env.PATH ?? '', ORBIT_OUTPUT_DIR: outputDir, ORBIT_LOG_LEVEL: 'error' },
        stderr: 'ignore',
      }),
    );
    tools = (await client.listTools()).tools;
    const bundle = await rolldown({ input: resolve('test/views/host/page.ts'), platform: 'browser', logLevel: 'warn' });
    hostScript = (await bundle.generate({ format: 'iife' })).output[0].code;
    await bundle.close();
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await rm(outputDir, { recursive: true, force: true });
  });

  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
    recordOutcome(name, result.isError === true);
    return result;
  }

  /** Opens the view a tool names, as a host would, with that tool's real result. */
  async function show(
    tool: string,
    input: Record<string, unknown>,
    result: CallToolResult,
    theme: 'light' | 'dark' = 'light',
  ): Promise<{ page: Page; view: Frame }> {
    const listed = tools.find((t) => t.name === tool)!;
    const uri = (listed._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
    expect(uri, `${tool} names a view`).toMatch(/^ui:\/\/orbit\/[a-z]+$/);
    const read = await client.readResource({ uri: uri! });
    const content = read.contents[0]!;
    expect(content.mimeType).toBe('text/html;profile=mcp-app');
    const html = 'text' in content ? String(content.text) : '';
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 700 } });
    await page.exposeFunction('mcp', async (method: string, params: Record<string, unknown>) => {
      if (method === 'tools/call') {
        asked.push({ name: String(params.name), arguments: (params.arguments ?? {}) as Record<string, unknown> });
        return call(String(params.name), (params.arguments ?? {}) as Record<string, unknown>);
      }
      return client.readResource(params as { uri: string });
    });
    await page.setContent(`<!doctype html><html><body style="margin:0"><script>${hostScript}</script></body></html>`);
    const meta = (content._meta?.ui ?? {}) as { csp?: object };
    await page.evaluate(
      (shown) => window.showView(shown),
      { html, csp: meta.csp ?? {}, tool: listed, input, result, theme, width: WIDTH } as never,
    );
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    return { page, view: frame! };
  }

  /** The rendered page fits the narrow width, and a screenshot is kept for the README. */
  async function finish(page: Page, view: Frame, name: string): Promise<void> {
    const overflow = await view.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} fits ${WIDTH} px`).toBeLessThanOrEqual(0);
    await page.locator('iframe').screenshot({ path: `docs/screenshots/${name}.png` });
    await page.close();
  }

  it('gallery: shows the image at its natural size, and Vary calls image_generate with the prompt and a new seed', async () => {
    const input = { model: 'pixel-lite', prompt: 'a red fox in snow' };
    const result = await call('image_generate', input);
    expect(result.isError).toBeFalsy();
    const { page, view } = await show('image_generate', input, result);
    const img = view.locator('.grid img').first();
    await img.waitFor();
    await view.waitForFunction(() => (document.querySelector('.grid img') as HTMLImageElement)?.complete);
    const size = await img.evaluate((i: HTMLImageElement) => [i.naturalWidth, i.naturalHeight]);
    const png = await client.readResource({ uri: (result.structuredContent as { images: { uri: string }[] }).images[0]!.uri });
    const bytes = Buffer.from(String((png.contents[0] as { blob: string }).blob), 'base64');
    expect(size).toEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]);
    expect(await view.textContent('#prompt')).toBe(input.prompt);
    const before = asked.length;
    await view.click('#vary');
    await view.waitForFunction(() => document.querySelectorAll('.grid img').length === 2);
    expect(asked[before]).toMatchObject({ name: 'image_generate', arguments: input });
    expect(typeof asked[before]!.arguments.seed).toBe('number');
    await finish(page, view, 'gallery');
  });

  it('player: a video and a speech clip load their metadata with a duration above zero', async () => {
    const input = { model: 'sandbox/video-pro', prompt: 'waves at dusk', duration: '5' };
    const video = await call('video_generate', input);
    expect(video.isError, JSON.stringify(video.content)).toBeFalsy();
    expect((video.structuredContent as { status: string }).status).toBe('COMPLETED');
    const shown = await show('video_generate', input, video);
    const duration = await shown.view.waitForFunction(() => {
      const v = document.querySelector('video');
      return v && v.readyState >= 1 && v.duration > 0 ? v.duration : 0;
    });
    expect(await duration.jsonValue()).toBeGreaterThan(0);
    await finish(shown.page, shown.view, 'player');

    const speech = await call('speech_generate', { text: 'Hello from the sandbox.', format: 'wav' });
    const heard = await show('speech_generate', { text: 'Hello from the sandbox.' }, speech);
    const seconds = await heard.view.waitForFunction(() => {
      const a = document.querySelector('audio');
      return a && a.readyState >= 1 && a.duration > 0 ? a.duration : 0;
    });
    expect(await seconds.jsonValue()).toBeGreaterThan(0);
    await heard.page.close();
  });

  it('player: a running video job shows its progress and resumes with video_status', async () => {
    const input = { model: 'sandbox/video-pro', prompt: 'a slow pan', wait: false };
    const started = await call('video_generate', input);
    const runId = (started.structuredContent as { run_id: string; status: string }).run_id;
    expect((started.structuredContent as { status: string }).status).not.toBe('COMPLETED');
    const { page, view } = await show('video_generate', input, started);
    await view.locator('#resume').waitFor();
    const before = asked.length;
    await view.click('#resume');
    await view.waitForFunction(() => (document.querySelector('video')?.duration ?? 0) > 0, undefined, { timeout: 60_000 });
    expect(asked[before]).toEqual({ name: 'video_status', arguments: { run_id: runId, max_wait_s: 30 } });
    await page.close();
  }, 90_000);
});
