/**
 * Clients pinned to the 2026-07-28 revision (server/discover, per-request `_meta`, no sessions),
 * with the SDK's v2 client, against the built server over stdio, HTTP and HTTP --stateless; and
 * the same endpoints still serving 2025 clients. Sign-in runs as input_required: the link goes to
 * the person as a URL elicitation, the call comes back and finishes after approval.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { answerInBrowser, approveElsewhere, describeWithBrowser, launchBrowser } from '../../auth/browser.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
const CHAT = { name: 'chat', arguments: { model: 'openai/gpt-sandbox', prompt: 'Say hello to 2026' } };

type Transport = StdioClientTransport | StreamableHTTPClientTransport;

/** Lists, chats with progress, makes an image: the journey every client below must complete. */
async function journey(client: Client) {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain('chat');
  const progress: string[] = [];
  const chat = await client.callTool(CHAT, { onprogress: (p) => progress.push(p.message ?? '') });
  expect(chat.isError, JSON.stringify(chat.content)).toBeFalsy();
  expect((chat.structuredContent as { text: string }).text).toContain('Say hello to 2026');
  expect(progress.length).toBeGreaterThan(0);
  const image = await client.callTool({
    name: 'image_generate',
    arguments: { model: 'pixel-lite', prompt: 'a fox', resolution: '512x512' },
  });
  expect(image.isError, JSON.stringify(image.content)).toBeFalsy();
  expect(image.content.some((item) => item.type === 'image')).toBe(true);
}

async function connected(transport: Transport, era: 'modern' | 'legacy') {
  const client = new Client({ name: `e2e-${era}`, version: '1' }, era === 'modern' ? MODERN : {});
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

describe('2026-07-28 clients', () => {
  it('complete the journey over stdio', async () => {
    const client = await connected(
      new StdioClientTransport({ command: process.execPath, args: [BIN, '--sandbox'], stderr: 'pipe' }),
      'modern',
    );
    try {
      await journey(client);
    } finally {
      await client.close();
    }
  });

  for (const mode of ['sessions', 'stateless'] as const) {
    describe(`over HTTP (${mode})`, () => {
      let server: { url: string; child: ChildProcess };
      beforeAll(async () => {
        server = await startHttpServer([
          BIN,
          '--http',
          '--sandbox',
          '--port',
          '0',
          ...(mode === 'stateless' ? ['--stateless'] : []),
        ]);
      });
      afterAll(async () => {
        if (server) await stopProcess(server.child);
      });

      for (const era of ['modern', 'legacy'] as const) {
        it(`serve a ${era === 'modern' ? '2026-07-28' : '2025'} client`, async () => {
          const transport = new StreamableHTTPClientTransport(new URL(server.url));
          const client = await connected(transport, era);
          try {
            // 2026 is sessionless; a 2025 client keeps its session unless the server runs --stateless.
            expect(transport.sessionId !== undefined).toBe(era === 'legacy' && mode === 'sessions');
            await journey(client);
          } finally {
            await client.close();
          }
        });
      }
    });
  }
});

describeWithBrowser(import.meta.url, 'sign-in for a 2026-07-28 client', () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let configDir: string;
  beforeAll(async () => {
    [sandbox, browser] = await Promise.all([startSandbox({ quiet: true }), launchBrowser()]);
    configDir = await mkdtemp(join(tmpdir(), 'orbit-modern-auth-'));
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    await rm(configDir, { recursive: true, force: true });
  });

  it('returns the link as input_required, and the call finishes once the person approves', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--base-url', sandbox.url],
      // The browser is on this machine here (it reaches the loopback), whatever the display says.
      env: {
        PATH: process.env.PATH ?? '',
        ORBIT_CONFIG_DIR: configDir,
        ORBIT_NO_BROWSER: '1',
        ORBIT_SIGN_IN_PASTE: '0',
      },
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'e2e-modern-auth', version: '1' },
      { ...MODERN, capabilities: { elicitation: { url: {} } } },
    );
    const links: string[] = [];
    const approvals: Promise<unknown>[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      if (request.params.mode !== 'url') return { action: 'decline' };
      links.push(request.params.url);
      approvals.push(answerInBrowser(browser, request.params.url, 'approve'));
      return { action: 'accept' };
    });
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const result = await client.callTool(CHAT);
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(links).toHaveLength(1);
      // The link reached the person and never the model's context.
      expect(JSON.stringify(result)).not.toContain(links[0]);
      await Promise.all(approvals);
      // Signed in: the next call needs no link.
      expect((await client.callTool(CHAT)).isError).toBeFalsy();
      expect(links).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('with the browser on another machine, asks for the address it ends on as input_required and finishes', async () => {
    const pasteConfig = await mkdtemp(join(tmpdir(), 'orbit-modern-paste-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--base-url', sandbox.url],
      env: { PATH: process.env.PATH ?? '', ORBIT_CONFIG_DIR: pasteConfig, ORBIT_SIGN_IN_PASTE: '1' },
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'e2e-modern-paste', version: '1' },
      { ...MODERN, capabilities: { elicitation: { url: {}, form: {} } } },
    );
    let address: Promise<string> | undefined;
    const forms: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      if (request.params.mode === 'url') {
        address = approveElsewhere(browser, request.params.url);
        return { action: 'accept' };
      }
      forms.push(request.params.message);
      return { action: 'accept', content: { callback_url: await address! } };
    });
    await client.connect(transport);
    try {
      const result = await client.callTool(CHAT);
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(forms).toHaveLength(1);
      expect(forms[0]).toContain('copy that whole address from the address bar and paste it here');
      expect((await client.callTool(CHAT)).isError).toBeFalsy();
    } finally {
      await client.close();
      await rm(pasteConfig, { recursive: true, force: true });
    }
  });
});
