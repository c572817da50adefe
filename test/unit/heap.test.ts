import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import media from '../../resources/media.js';
import { StaticCredentials } from '../../src/credentials.js';
import { mediaContent } from '../../src/files/content.js';
import type { Files } from '../../src/files/files.js';
import {
  BOUND_HOLD_MS,
  BOUNDED_GROWING_PERCENT,
  HeapGrowth,
  LARGE_PAYLOAD_BYTES,
  manageHeapGrowth,
  STDIO_GROWING_PERCENT,
  YOUNG_SEMI_SPACE_CAP_BYTES,
  YoungGeneration,
} from '../../src/heap.js';
import { createLogger } from '../../src/log.js';
import { readJson } from '../../src/mcp/http/endpoint/request.js';
import { HttpClient } from '../../src/upstream/client.js';
import { json, startServer } from './upstream/server.js';

describe('HeapGrowth', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function recorded() {
    const set: number[] = [];
    return { set, policy: new HeapGrowth((percent) => set.push(percent)) };
  }

  it('leaves V8 its own growth for message-sized payloads', () => {
    const { set, policy } = recorded();
    policy.notePayload(0);
    policy.notePayload(LARGE_PAYLOAD_BYTES - 1);
    expect(set).toEqual([]);
    expect(policy.isBounded).toBe(false);
  });

  it('bounds growth once a media-sized payload passes, and hands it back after the hold', () => {
    vi.useFakeTimers();
    const { set, policy } = recorded();
    policy.notePayload(LARGE_PAYLOAD_BYTES);
    policy.notePayload(5 * LARGE_PAYLOAD_BYTES);
    expect(set).toEqual([BOUNDED_GROWING_PERCENT]);
    expect(policy.isBounded).toBe(true);
    vi.advanceTimersByTime(BOUND_HOLD_MS - 1);
    expect(policy.isBounded).toBe(true);
    vi.advanceTimersByTime(1);
    expect(set).toEqual([BOUNDED_GROWING_PERCENT, 0]);
    expect(policy.isBounded).toBe(false);
  });

  it('holds the bound a full hold after the last large payload, not the first', () => {
    vi.useFakeTimers();
    const { set, policy } = recorded();
    policy.notePayload(LARGE_PAYLOAD_BYTES);
    vi.advanceTimersByTime(BOUND_HOLD_MS - 10);
    policy.notePayload(LARGE_PAYLOAD_BYTES);
    vi.advanceTimersByTime(BOUND_HOLD_MS - 10);
    expect(policy.isBounded).toBe(true);
    vi.advanceTimersByTime(10);
    expect(policy.isBounded).toBe(false);
    expect(set).toEqual([BOUNDED_GROWING_PERCENT, 0]);
  });

  it('over stdio rests at a bound of its own, and goes back to it after the media bound', () => {
    vi.useFakeTimers();
    const set: number[] = [];
    const policy = new HeapGrowth((percent) => set.push(percent), BOUND_HOLD_MS, STDIO_GROWING_PERCENT);
    expect(set).toEqual([STDIO_GROWING_PERCENT]);
    policy.notePayload(LARGE_PAYLOAD_BYTES);
    vi.advanceTimersByTime(BOUND_HOLD_MS);
    expect(set).toEqual([STDIO_GROWING_PERCENT, BOUNDED_GROWING_PERCENT, STDIO_GROWING_PERCENT]);
  });

  it("changes nothing when the operator chose V8's heap growth", () => {
    const before = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = '--heap-growing-percent=80';
    try {
      expect(manageHeapGrowth('stdio')).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = before;
    }
  });
});

describe('YoungGeneration', () => {
  const MiB = 1024 * 1024;

  it('stops growth at the cap and lets a young generation V8 shrank grow again', () => {
    const factors: number[] = [];
    let size = 2 * MiB;
    const young = new YoungGeneration(
      (factor) => factors.push(factor),
      () => size,
    );
    young.afterScavenge();
    expect(factors).toEqual([]);
    size = 2 * YOUNG_SEMI_SPACE_CAP_BYTES;
    young.afterScavenge();
    young.afterScavenge();
    expect(factors).toEqual([1]);
    expect(young.isCapped).toBe(true);
    size = 4 * MiB;
    young.afterScavenge();
    expect(factors).toEqual([1, 2]);
    expect(young.isCapped).toBe(false);
  });

  // In a process of its own: the cap changes V8's flags for the whole process.
  const sizeAfterChurn = (mode: 'cap' | 'none', env: NodeJS.ProcessEnv = {}) =>
    Number(
      execFileSync(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('./young-generation.child.ts', import.meta.url)), mode],
        { env: { ...process.env, NODE_OPTIONS: '', ...env }, encoding: 'utf8' },
      ),
    );

  it("holds a busy process's young generation at two semi-spaces of the cap (V8 alone doubles it)", () => {
    expect(sizeAfterChurn('cap')).toBeLessThanOrEqual(2 * YOUNG_SEMI_SPACE_CAP_BYTES);
    expect(sizeAfterChurn('none')).toBeGreaterThan(2 * YOUNG_SEMI_SPACE_CAP_BYTES);
  });

  it('leaves the young generation alone when the operator sized it', () => {
    const size = sizeAfterChurn('cap', { NODE_OPTIONS: '--max-semi-space-size=32' });
    expect(size).toBeGreaterThan(2 * YOUNG_SEMI_SPACE_CAP_BYTES);
  });
});

describe('what tells the policy of a payload', () => {
  const policy = manageHeapGrowth('http')!;
  afterEach(() => policy.relax());
  afterAll(() => {
    policy.relax();
    setFlagsFromString('--heap-growing-percent=0');
  });

  const body = (bytes: number) => JSON.stringify({ data: 'x'.repeat(bytes) });

  it('a platform reply: a small one leaves growth alone, a media-sized one bounds it', async () => {
    const server = await startServer();
    const client = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, userAgent: 't' });
    try {
      const api = client.api({
        credentials: new StaticCredentials([]),
        signal: new AbortController().signal,
        log: createLogger('error'),
      });
      const call = () =>
        api.request({
          method: 'GET',
          path: '/v1/x',
          credential: 'none',
          schema: z.object({ data: z.string() }),
        });
      server.script(json(200, { data: 'small' }), json(200, JSON.parse(body(LARGE_PAYLOAD_BYTES))));
      await call();
      expect(policy.isBounded).toBe(false);
      await call();
      expect(policy.isBounded).toBe(true);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a request body read by the HTTP endpoint', async () => {
    const request = (text: string) =>
      Object.assign(Readable.from([Buffer.from(text)]), { headers: {} }) as never;
    await readJson(request(body(100)));
    expect(policy.isBounded).toBe(false);
    await readJson(request(body(LARGE_PAYLOAD_BYTES)));
    expect(policy.isBounded).toBe(true);
  });

  it('a saved file sent inline or read as a resource', async () => {
    const files = (bytes: number) =>
      ({
        open: async (id: string) => ({
          file: { id, uri: `orbit://media/${id}`, mimeType: 'image/png', bytes },
          data: Buffer.alloc(bytes),
        }),
      }) as unknown as Files;
    await mediaContent(['orbit://media/small'], files(1_000));
    expect(policy.isBounded).toBe(false);
    await mediaContent(['orbit://media/large'], files(LARGE_PAYLOAD_BYTES));
    expect(policy.isBounded).toBe(true);
    policy.relax();
    await media.read({ id: 'large' }, { files: files(LARGE_PAYLOAD_BYTES) } as never);
    expect(policy.isBounded).toBe(true);
  });
});
