/**
 * Cancellation in the 2026-07-28 revision, against the built server: over HTTP the client closes
 * the request's stream, over stdio it sends notifications/cancelled. Either way the server stops
 * the work at once: a video that is still rendering is polled no more. The 2025 era's cancellation
 * (in process) is covered by media-video.test.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
const VIDEO = {
  name: 'video_generate',
  arguments: { model: 'sandbox/video-pro', prompt: 'a long night', max_wait_s: 30 },
};

let sandbox: Sandbox;
let http: { url: string; child: ChildProcess };
const env = () => ({ PATH: process.env.PATH ?? '', ORBIT_API_KEY: sandbox.demoKey });

beforeAll(async () => {
  // Renders for 20 s, polled every 40 ms: a call that is not stopped keeps polling.
  sandbox = await startSandbox({
    quiet: true,
    timing: { videoQueueMs: 50, videoRenderMs: 20_000, pollHintMs: 40 },
  });
  http = await startHttpServer(
    [BIN, '--http', '--port', '0', '--base-url', sandbox.url, '--log-level', 'error'],
    {
      env: env(),
    },
  );
});
afterAll(async () => {
  if (http) await stopProcess(http.child);
  await sandbox?.close();
});

const polls = () => sandbox.requests.filter((r) => r.path === '/api/video/status').length;

/** Starts the video, cancels once it renders, and checks that polling stops. */
async function cancelsWhileRendering(client: Client) {
  expect(client.getProtocolEra()).toBe('modern');
  sandbox.clearRequests();
  const controller = new AbortController();
  const call = client.callTool(VIDEO, {
    signal: controller.signal,
    onprogress: (p) => {
      if (p.message?.startsWith('rendering')) controller.abort();
    },
  });
  await expect(call).rejects.toThrow();
  // What was already on its way settles; then nothing more comes.
  await sleep(200);
  const atCancel = polls();
  await sleep(600);
  expect(atCancel).toBeGreaterThan(0);
  expect(polls()).toBe(atCancel);
}

describe('2026-07-28 cancellation', () => {
  it('over HTTP: closing the stream stops the call', async () => {
    const client = new Client({ name: 'cancel-http', version: '1' }, MODERN);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${sandbox.demoKey}` } },
      }),
    );
    try {
      await cancelsWhileRendering(client);
    } finally {
      await client.close();
    }
  });

  it('over stdio: notifications/cancelled stops the call', async () => {
    const client = new Client({ name: 'cancel-stdio', version: '1' }, MODERN);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--base-url', sandbox.url, '--log-level', 'error'],
        env: env(),
        stderr: 'pipe',
      }),
    );
    try {
      await cancelsWhileRendering(client);
    } finally {
      await client.close();
    }
  });
});
