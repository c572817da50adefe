/**
 * Graceful shutdown of one replica without a store (the default): on SIGTERM new requests get 503
 * with Retry-After and /ready says so, a running call gets until the drain deadline, and a call
 * that follows a job past it answers with the job id and the call that continues it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { postMcp, rpc } from '../helpers/http.js';
import { probe, Replicas } from './lib/replicas.js';

let sandbox: Sandbox;
let replicas: Replicas;
let outputDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    quiet: true,
    timing: { videoQueueMs: 300, videoRenderMs: 30_000, pollHintMs: 250 },
  });
  outputDir = await mkdtemp(join(tmpdir(), 'orbit-drain-'));
  replicas = await Replicas.start(1, { baseUrl: sandbox.url, outputDir, env: { ORBIT_DRAIN_MS: '1500' } });
}, 30_000);
afterAll(async () => {
  await replicas?.stopAll();
  await sandbox?.close();
  if (outputDir) await rm(outputDir, { recursive: true, force: true });
});

describe('SIGTERM without a store', () => {
  it('refuses new requests (503, Retry-After), reports not ready, and hands a long call’s job id back at the deadline', async () => {
    const [replica] = replicas.all;
    const key = sandbox.state.createKey({ label: 'drain', balance: 100 });
    const url = `http://127.0.0.1:${replica!.port}/mcp`;
    const client = new Client({ name: 'drain', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    let terminating: Promise<void> | undefined;
    const seen: { ready?: number; health?: unknown; refused?: number; retryAfter?: string | null } = {};
    const result = (await client.callTool(
      {
        name: 'video_generate',
        arguments: { model: 'sandbox/video-pro', prompt: 'a long night', max_wait_s: 120 },
      },
      undefined,
      {
        timeout: 60_000,
        onprogress: () => {
          if (terminating) return;
          terminating = replicas.terminate(replica!);
          setTimeout(async () => {
            try {
              seen.ready = (await probe(replica!.port, '/ready')).status;
              seen.health = (await probe(replica!.port, '/health')).body.status;
              const late = await postMcp(url, rpc('ping'));
              seen.refused = late.status;
              seen.retryAfter = late.headers.get('retry-after');
            } catch (error) {
              // A server that exits at once (no drain) refuses the connection.
              seen.ready = -1;
              seen.health = String(error);
            }
          }, 300);
        },
      },
    )) as CallToolResult;
    await terminating;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const out = result.structuredContent as { run_id: string; status: string; next?: string };
    expect(out.status).toMatch(/IN_QUEUE|IN_PROGRESS/);
    expect(out.next).toBe(`video_status with run_id "${out.run_id}"`);
    expect(seen).toEqual({ ready: 503, health: 'draining', refused: 503, retryAfter: '1' });
    expect(replica!.child!.exitCode).toBe(0);
    await client.close();
  }, 60_000);
});
