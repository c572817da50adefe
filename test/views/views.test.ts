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
import jsqr from 'jsqr';
import type { Browser, Frame, Page } from 'playwright-core';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBrowser, launchBrowser } from '../auth/browser.js';
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

describeWithBrowser(import.meta.url, 'MCP Apps views in Chromium', () => {
  beforeAll(async () => {
    outputDir = await mkdtemp(join(tmpdir(), 'orbit-views-'));
    client = new Client(
      { name: 'orbit-view-host', version: '1.0.0' },
      { capabilities: { extensions: UI } as never },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [resolve('dist/orbit-mcp.js'), '--sandbox', '--toolsets', 'all'],
        env: { PATH: process.env.PATH ?? '', ORBIT_OUTPUT_DIR: outputDir, ORBIT_LOG_LEVEL: 'error' },
        stderr: 'ignore',
      }),
    );
    tools = (await client.listTools()).tools;
    const bundle = await rolldown({
      input: resolve('test/views/host/page.ts'),
      platform: 'browser',
      logLevel: 'warn',
    });
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
    const result = (await client.callTool({ name, arguments: args }, undefined, {
      timeout: 60_000,
    })) as CallToolResult;
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
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 2000 } });
    await page.exposeFunction('mcp', async (method: string, params: Record<string, unknown>) => {
      if (method === 'tools/call') {
        asked.push({
          name: String(params.name),
          arguments: (params.arguments ?? {}) as Record<string, unknown>,
        });
        return call(String(params.name), (params.arguments ?? {}) as Record<string, unknown>);
      }
      return client.readResource(params as { uri: string });
    });
    await page.setContent(
      `<!doctype html><html><body style="margin:0"><script>${hostScript}</script></body></html>`,
    );
    const meta = (content._meta?.ui ?? {}) as { csp?: object };
    await page.evaluate((shown) => window.showView(shown), {
      html,
      csp: meta.csp ?? {},
      tool: listed,
      input,
      result,
      theme,
      width: WIDTH,
    } as never);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    return { page, view: frame! };
  }

  /** The rendered page fits the narrow width, and a screenshot is kept for the README. */
  async function finish(page: Page, view: Frame, name: string): Promise<void> {
    const overflow = await view.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} fits ${WIDTH} px`).toBeLessThanOrEqual(0);
    // The README's pictures are refreshed on request; otherwise a run leaves the tree as it was.
    const folder = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : outputDir;
    await page.locator('iframe').screenshot({ path: join(folder, `${name}.png`) });
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
    const png = await client.readResource({
      uri: (result.structuredContent as { images: { uri: string }[] }).images[0]!.uri,
    });
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

  it('player: a video, a speech clip and a music clip load their metadata with a duration above zero', async () => {
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

    // Speech as WAV and music as MP3: both decode in the browser.
    const clips: [string, Record<string, unknown>][] = [
      ['speech_generate', { text: 'Hello from the sandbox.', format: 'wav' }],
      ['music_generate', { prompt: 'calm piano', model: 'music-lite' }],
    ];
    for (const [tool, args] of clips) {
      const clip = await call(tool, args);
      expect(clip.isError, JSON.stringify(clip.content)).toBeFalsy();
      const heard = await show(tool, args, clip);
      const seconds = await heard.view.waitForFunction(() => {
        const a = document.querySelector('audio');
        return a && a.readyState >= 1 && a.duration > 0 ? a.duration : 0;
      });
      expect(await seconds.jsonValue(), tool).toBeGreaterThan(0);
      await heard.page.close();
    }
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
    await view.waitForFunction(() => (document.querySelector('video')?.duration ?? 0) > 0, undefined, {
      timeout: 60_000,
    });
    expect(asked[before]).toEqual({ name: 'video_status', arguments: { run_id: runId, max_wait_s: 30 } });
    await page.close();
  }, 90_000);

  it('payment: each rail has a QR code that decodes to its exact invoice or address, and I have paid calls x402_complete', async () => {
    const input = { query: 'aurora forecast', payment: 'x402' };
    const quoted = await call('web_search', input);
    const payment = (quoted.structuredContent as { payment: Quote }).payment;
    expect(payment.rails.length).toBeGreaterThan(1);
    const { page, view } = await show('web_search', input, quoted);
    expect(await view.textContent('#amount')).toBe(`$${payment.amount_usd}`);
    expect(await view.textContent('#expiry')).toMatch(/^\d+:\d\d$/);
    const tabs = view.locator('[role=tab]');
    expect(await tabs.count()).toBe(payment.rails.length);
    for (const [index, rail] of payment.rails.entries()) {
      await tabs.nth(index).click();
      const want = rail.kind === 'lightning' ? rail.invoice : rail.pay_to;
      expect(want, rail.scheme).toBeTruthy();
      expect(await decodeQr(view)).toBe(want);
      expect(await view.textContent('.rail-amount')).toBe(rail.amount);
    }
    const lightning = payment.rails.findIndex((rail) => rail.kind === 'lightning');
    expect(lightning).toBeGreaterThanOrEqual(0);
    await tabs.nth(lightning).click();
    await view.fill('#preimage', 'ab'.repeat(32));
    const before = asked.length;
    await view.click('#paid');
    await view.waitForFunction(
      () => !/Checking/.test(document.querySelector('.status')?.textContent ?? 'Checking'),
    );
    expect(asked[before]).toEqual({
      name: 'x402_complete',
      arguments: { quote_id: payment.quote_id, preimage: 'ab'.repeat(32) },
    });
    await tabs.nth(0).click();
    await finish(page, view, 'payment');
  });

  it('usage: each quota is a meter whose value is the quota used, the budget beside them', async () => {
    await call('image_generate', { model: 'pixel-lite', prompt: 'a spend to show' });
    const result = await call('usage_get', {});
    const usage = result.structuredContent as {
      quotas: Record<string, { used: number; limit: number; resets_in: string }>;
      budget: { spent_usd: number };
    };
    const names = Object.keys(usage.quotas);
    expect(names.length).toBeGreaterThan(0);
    const { page, view } = await show('usage_get', {}, result);
    await view.locator('meter[data-quota]').first().waitFor();
    for (const name of names) {
      const meter = view.locator(`meter[data-quota="${name}"]`);
      expect(await meter.evaluate((m: HTMLMeterElement) => [m.value, m.max])).toEqual([
        usage.quotas[name]!.used ?? 0,
        usage.quotas[name]!.limit ?? 1,
      ]);
      expect(await meter.locator('..').textContent()).toContain(`Resets ${usage.quotas[name]!.resets_in}`);
    }
    expect(await view.textContent('[data-budget=spent]')).toBe(`$${usage.budget.spent_usd.toFixed(2)}`);
    await finish(page, view, 'usage');
  });

  it('scores: the table cells equal the structured score table, and rows expand', async () => {
    const input = {
      rows: [
        { input: 'What is the capital of France?', expected_output: 'Capital of FRANCE' },
        { input: 'Name the largest planet', expected_output: 'Jupiter' },
      ],
      candidates: [
        { model: 'openai/gpt-sandbox-mini' },
        { model: 'anthropic/claude-sandbox', prompt: 'Answer: {{input}}' },
      ],
      scorers: [
        'contains',
        {
          scorer_type: 'llm_judge',
          prompt: 'Does "{{output}}" answer "{{input}}"?',
          config: { pass_threshold: 0.7 },
        },
      ],
    };
    const result = await call('eval_run', input);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const table = (
      result.structuredContent as {
        table: { candidate: string; scorer: string; mean?: number; pass_rate?: number }[];
      }
    ).table;
    expect(table.length).toBe(4);
    const { page, view } = await show('eval_run', input, result, 'dark');
    await view.locator('#scores').waitFor();
    const cells = await view.$$eval('td.cell', (tds) =>
      tds.map((td) => ({
        candidate: td.closest('tr')!.getAttribute('data-candidate'),
        scorer: td.getAttribute('data-scorer'),
        mean: td.querySelector('.mean')!.textContent,
        pass: td.querySelector('.pass')?.textContent ?? null,
      })),
    );
    expect(cells).toEqual(
      table.map((c) => ({
        candidate: c.candidate,
        scorer: c.scorer,
        mean: c.mean === undefined ? '–' : c.mean.toFixed(3),
        pass: c.pass_rate === undefined ? null : ` · ${Math.round(c.pass_rate * 100)}% pass`,
      })),
    );
    await view.locator('tr[data-candidate] button').first().click();
    expect(await view.locator('tr.detail:not([hidden])').count()).toBe(1);
    // The host's dark theme reaches the view.
    expect(await view.evaluate(() => getComputedStyle(document.body).colorScheme)).toContain('dark');
    await finish(page, view, 'scores');

    // The same run read back with evals_read; an expanded row fetches the outputs through the host.
    const id = (result.structuredContent as { experiment_id: string }).experiment_id;
    const readArgs = { operation: 'experiments.get', id };
    const again = await show('evals_read', readArgs, await call('evals_read', readArgs));
    await again.view.locator('#scores').waitFor();
    expect(await again.view.locator('td.cell').count()).toBe(table.length);
    await again.view.locator('tr[data-candidate] button').first().click();
    const before = asked.length;
    // Dispatched on the button itself: a click by coordinates could land while the frame resizes to
    // the row it just expanded, and miss (seen under load: the button stayed, never pressed).
    await again.view.locator('button.outputs').dispatchEvent('click');
    await again.view.waitForFunction(() => !document.querySelector('button.outputs'));
    // One line per row of the run for this candidate: its input, then its output or why none was kept.
    const lines = await again.view.$$eval('tr.detail:not([hidden]) p.mono', (ps) =>
      ps.map((p) => p.textContent ?? ''),
    );
    expect(lines.filter((line) => line.includes(' → ')).length).toBe(input.rows.length);
    expect(asked[before]).toEqual({
      name: 'evals_read',
      arguments: { operation: 'experiments.output_items', id },
    });
    await again.page.close();
  });

  it('attestation: each check is listed as passed, failed or not checked with its reason, and the signing address', async () => {
    const result = await call('tee_attestation', {});
    const out = result.structuredContent as {
      verified: boolean;
      signing_address: string;
      checks: { id: string; status: string; reason: string }[];
    };
    const { page, view } = await show('tee_attestation', {}, result);
    await view.locator('#checks li').first().waitFor();
    const listed = await view.$$eval('#checks li', (lis) =>
      lis.map((li) => ({
        id: li.getAttribute('data-check'),
        status: li.getAttribute('data-status'),
        reason: li.querySelector('.muted')!.textContent,
      })),
    );
    expect(listed).toEqual(out.checks.map((c) => ({ id: c.id, status: c.status, reason: c.reason })));
    expect(await view.textContent('#signer')).toBe(out.signing_address);
    expect(await view.textContent('#verdict')).toContain(out.verified ? 'Verified' : 'Not verified');
    await finish(page, view, 'attestation');

    // chat with verify shows its reply's verdict; without verify, one quiet line.
    const asked = { model: 'TEE/llama-sandbox', prompt: 'Are you in an enclave?', verify: true };
    const verified = await call('chat', asked);
    const verdict = (verified.structuredContent as { verification: { verdict: string } }).verification
      .verdict;
    const shown = await show('chat', asked, verified);
    await shown.view.locator('#verdict').waitFor();
    expect(await shown.view.textContent('#verdict')).toContain('✓ Verified');
    expect(await shown.view.textContent('#reason')).toBe(verdict);
    await shown.page.close();
    const plainChat = { model: 'openai/gpt-sandbox', prompt: 'Hello' };
    const unverified = await show('chat', plainChat, await call('chat', plainChat));
    await unverified.view.waitForFunction(() => !/Waiting/.test(document.body.textContent ?? ''));
    expect(await unverified.view.textContent('main')).toBe(
      'No attestation in this result; ask with verify: true on an enclave model.',
    );
    await unverified.page.close();
  });
});

interface Quote {
  quote_id: string;
  amount_usd: string;
  rails: { scheme: string; kind: string; amount?: string; pay_to?: string; invoice?: string }[];
}

/** Reads the QR canvas the view drew (its pixels, as a screenshot would show them) and decodes it. */
async function decodeQr(view: Frame): Promise<string | undefined> {
  const { width, height, data } = await view.$eval('canvas.qr', (canvas: HTMLCanvasElement) => {
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    return { width: pixels.width, height: pixels.height, data: Array.from(pixels.data) };
  });
  return jsqr.default(Uint8ClampedArray.from(data), width, height)?.data;
}
