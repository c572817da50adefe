import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_KEY } from '../../../src/sandbox/constants.js';
import { type Harness, type Out, out, resourceText, startHarness, textOf } from '../../helpers/harness.js';

const TIMING = { videoQueueMs: 150, videoRenderMs: 300, pollHintMs: 30 };
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ sandbox: { timing: TIMING } });
});
afterAll(async () => {
  await h.close();
});

const statusPolls = () => h.sandbox.requests.filter((r) => r.path === '/api/video/status');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('video_generate', () => {
  it('submits, reports readable progress in order, and saves a real MP4 with pre-charge and final cost', async () => {
    h.sandbox.clearRequests();
    const progress: Progress[] = [];
    const result = await h.call(
      'video_generate',
      { model: 'sandbox/video-pro', prompt: 'a lighthouse at dawn', duration: '5' },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o).toMatchObject({ status: 'COMPLETED', cost: { estimate: 0.5, final: 0.5 } });
    expect(o.run_id).toMatch(/^vid_/);
    const bytes = await readFile(o.path);
    expect(bytes.toString('latin1', 4, 8)).toBe('ftyp');
    expect(o.path.startsWith(h.outputDir)).toBe(true);
    expect(o.path).toMatch(/[a-f0-9]{32}\.mp4$/);
    expect(result.content.find((c) => c.type === 'resource_link')).toMatchObject({
      uri: o.uri,
      mimeType: 'video/mp4',
    });
    expect(textOf(result)).toMatch(/pre-charged 0\.5 USD, final 0\.5 USD/);
    const messages = progress.map((p) => p.message ?? '');
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    const queued = messages.findIndex((m) => /^in queue, position \d/.test(m));
    const rendering = messages.findIndex((m) => /^rendering/.test(m));
    expect(queued).toBeGreaterThanOrEqual(0);
    expect(rendering).toBeGreaterThan(queued);
    // Then the file comes down ("video completed" may fall within the throttle window of the
    // download's first report, which then replaces it), and the last word says all of it has.
    const size = `${Math.ceil(bytes.length / 1024)} KB`;
    expect(messages.at(-1)).toBe(`downloading the video, ${size} of ${size}`);
    const downloading = messages.findIndex((m) => m.startsWith('downloading the video, '));
    expect(downloading).toBeGreaterThan(rendering);
    // The sandbox hinted 30 ms between polls; the default would be 1 s.
    expect(statusPolls().length).toBeGreaterThan(3);
    const submit = h.sandbox.requests.find((r) => r.path === '/api/generate-video');
    expect(submit?.json).toMatchObject({
      model: 'sandbox/video-pro',
      prompt: 'a lighthouse at dawn',
      duration: '5',
    });
    console.log(
      `video job: ${statusPolls().length} polls, ${progress.length} progress events: ${messages.join(' | ')}`,
    );
  });

  it('reads the flat status shape and says how far rendering is', async () => {
    const progress: Progress[] = [];
    const result = await h.call(
      'video_generate',
      { model: 'sandbox/video-lite', prompt: 'a paper boat', aspect_ratio: '1:1' },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).status).toBe('COMPLETED');
    expect(progress.some((p) => /^rendering, \d+%/.test(p.message ?? ''))).toBe(true);
  });

  it('returns the run id at once with wait: false, and video_status finishes the job', async () => {
    h.sandbox.clearRequests();
    const first = await h.call('video_generate', {
      model: 'sandbox/video-pro',
      prompt: 'a comet',
      wait: false,
    });
    expect(first.isError).toBeFalsy();
    expect(out(first)).toMatchObject({ status: 'IN_QUEUE', next: expect.stringContaining('video_status') });
    expect(statusPolls()).toHaveLength(0);
    const done = await h.call('video_status', { run_id: out(first).run_id });
    expect(out(done)).toMatchObject({ run_id: out(first).run_id, status: 'COMPLETED' });
    expect((await readFile(out(done).path)).toString('latin1', 4, 8)).toBe('ftyp');
  });

  it('hands back the run id without an error when the wait runs out, and video_status then finishes it', async () => {
    const slow = await startHarness({
      sandbox: { timing: { videoQueueMs: 100, videoRenderMs: 1_500, pollHintMs: 30 } },
    });
    try {
      const result = await slow.call('video_generate', {
        model: 'sandbox/video-pro',
        prompt: 'a slow sunset',
        max_wait_s: 0.3,
      });
      expect(result.isError).toBeFalsy();
      const o = out(result);
      expect(o.status).toMatch(/IN_QUEUE|IN_PROGRESS/);
      expect(o.next).toBe(`video_status with run_id "${o.run_id}"`);
      expect(textOf(result)).toContain('Still running');
      const job = await slow.client.readResource({ uri: `orbit://jobs/${o.run_id}` });
      const record = JSON.parse(resourceText(job.contents[0]));
      expect(record).toMatchObject({
        id: o.run_id,
        kind: 'video',
        next: { tool: 'video_status', arguments: { run_id: o.run_id } },
      });
      const done = await slow.call('video_status', { run_id: o.run_id, max_wait_s: 10 });
      expect(out(done)).toMatchObject({ run_id: o.run_id, status: 'COMPLETED' });
      const after = JSON.parse(
        resourceText((await slow.client.readResource({ uri: `orbit://jobs/${o.run_id}` })).contents[0]),
      );
      expect(after).toMatchObject({ status: 'COMPLETED', result: { path: out(done).path } });
    } finally {
      await slow.close();
    }
  });

  it('stops polling the moment the caller cancels', async () => {
    const slow = await startHarness({
      sandbox: { timing: { videoQueueMs: 50, videoRenderMs: 5_000, pollHintMs: 40 } },
    });
    try {
      const controller = new AbortController();
      const call = slow.call(
        'video_generate',
        { model: 'sandbox/video-pro', prompt: 'a long night' },
        {
          signal: controller.signal,
          onprogress: (p) => {
            if (p.message?.startsWith('rendering')) controller.abort();
          },
        },
      );
      await expect(call).rejects.toThrow();
      const polls = () => slow.sandbox.requests.filter((r) => r.path === '/api/video/status').length;
      await sleep(50);
      const atCancel = polls();
      await sleep(400);
      expect(polls()).toBe(atCancel);
      expect(atCancel).toBeGreaterThan(0);
    } finally {
      await slow.close();
    }
  });

  it('honours Retry-After on a rate-limited status check', async () => {
    h.sandbox.clearRequests();
    h.sandbox.faults.add({
      match: { path: '/api/video/status' },
      status: 429,
      retryAfterSeconds: 1,
      times: 2,
    });
    const result = await h.call('video_generate', { model: 'sandbox/video-pro', prompt: 'patience' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const [limited, next] = statusPolls();
    expect(limited?.status).toBe(429);
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(900);
  });

  it('reports a failed render as an error that says the pre-charge was refunded', async () => {
    const before = h.sandbox.state.balance(SANDBOX_DEMO_KEY);
    const result = await h.call('video_generate', {
      model: 'sandbox/video-pro',
      prompt: 'fail-render a storm',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/job_failed[\s\S]*FAILED[\s\S]*refunded/);
    expect(h.sandbox.state.balance(SANDBOX_DEMO_KEY)).toBeCloseTo(before, 9);
  });

  it('passes on a content-policy rejection without charging', async () => {
    const before = h.sandbox.state.balance(SANDBOX_DEMO_KEY);
    const result = await h.call('video_generate', { model: 'sandbox/video-pro', prompt: 'nsfw scene' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/HTTP 400[\s\S]*content policy[\s\S]*content_policy_violation/);
    expect(h.sandbox.state.balance(SANDBOX_DEMO_KEY)).toBe(before);
  });

  it('says how much balance a job needs when the account is short', async () => {
    const key = h.sandbox.state.createKey({ balance: 0.01 });
    const poor = await startHarness({
      sharedSandbox: h.sandbox,
      credentials: [{ kind: 'api_key', value: key, source: 'env' }],
    });
    try {
      const result = await poor.call('video_generate', {
        model: 'sandbox/video-pro',
        prompt: 'a castle',
        resolution: '1080p',
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/insufficient_balance, HTTP 402[\s\S]*requiredBalance: 0\.75/);
    } finally {
      await poor.close();
    }
  });

  it('refuses an inline image over 4 MB before sending anything, and says to use a URL', async () => {
    const big = join(h.outputDir, 'big.png');
    await writeFile(big, Buffer.alloc(4 * 1_048_576 + 10, 1));
    h.sandbox.clearRequests();
    const result = await h.call('video_generate', {
      model: 'sandbox/video-lite',
      prompt: 'animate',
      image: big,
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/at most 4 MB[\s\S]*URL/);
    // Only the catalog was read (the price reserved before sending); nothing paid was sent.
    expect(h.sandbox.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('sends a small local start image inline and a URL as a URL', async () => {
    const png = await readFile(
      (out(await h.call('image_generate', { model: 'pixel-lite', prompt: 'seed frame' })).images as Out[])[0]!
        .path,
    );
    const path = join(h.outputDir, 'frame.png');
    await writeFile(path, png);
    h.sandbox.clearRequests();
    const local = await h.call('video_generate', {
      model: 'sandbox/video-lite',
      prompt: 'animate',
      image: path,
      wait: false,
    });
    expect(local.isError, textOf(local)).toBeFalsy();
    const sent = h.sandbox.requests.find((r) => r.path === '/api/generate-video')?.json as Out;
    expect(sent.imageDataUrl).toMatch(/^data:image\/png;base64,/);
    h.sandbox.clearRequests();
    await h.call('video_generate', {
      model: 'sandbox/video-lite',
      prompt: 'animate',
      image: 'https://example.com/a.png',
      wait: false,
    });
    expect((h.sandbox.requests.find((r) => r.path === '/api/generate-video')!.json as Out).imageUrl).toBe(
      'https://example.com/a.png',
    );
  });
});

describe('video_status', () => {
  it('refuses a run of another account with 403', async () => {
    const other = h.sandbox.state.createKey({ balance: 5 });
    const res = await fetch(`${h.sandbox.url}/api/generate-video`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sandbox/video-lite', prompt: 'theirs' }),
    });
    const { runId } = (await res.json()) as { runId: string };
    const result = await h.call('video_status', { run_id: runId, max_wait_s: 0 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/forbidden, HTTP 403/);
  });
});

describe('video_extend', () => {
  it('extends a finished run of the extendable family and waits for the new run', async () => {
    const source = await h.call('video_generate', { model: 'sandbox/video-pro', prompt: 'a river' });
    const result = await h.call('video_extend', {
      run_id: out(source).run_id,
      index: 0,
      prompt: 'the river reaches the sea',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).status).toBe('COMPLETED');
    expect(out(result).run_id).not.toBe(out(source).run_id);
    expect(out(result).cost.estimate).toBe(0.5);
  });

  it('explains when a run cannot be extended', async () => {
    const source = await h.call('video_generate', { model: 'sandbox/video-lite', prompt: 'a kite' });
    const result = await h.call('video_extend', { run_id: out(source).run_id });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Only sandbox\/video-pro runs can be extended/);
  });
});

describe('video_recent', () => {
  it('lists recent runs newest first, then hits the 20-a-minute limit with a wait', async () => {
    const result = await h.call('video_recent', { limit: 3 });
    expect(result.isError).toBeFalsy();
    const runs = out(result).runs as Out[];
    expect(runs.length).toBe(3);
    expect(runs[0]!.run_id > runs[1]!.run_id).toBe(true);
    let last = result;
    for (let i = 0; i < 20 && !last.isError; i++) last = await h.call('video_recent', {});
    expect(last.isError).toBe(true);
    expect(textOf(last)).toMatch(/HTTP 429[\s\S]*Retry after: \d+ s/);
  });
});

describe('MCP tasks', () => {
  // The SDK's v2 line has no task API; long tools answer with progress and, past their wait, a run id.
  it('are not offered: no tasks capability and no task support on any tool', async () => {
    expect(h.client.getServerCapabilities()?.tasks).toBeUndefined();
    const { tools } = await h.client.listTools();
    expect(tools.filter((tool) => tool.execution !== undefined)).toEqual([]);
  });
});
