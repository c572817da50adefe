import { describe, expect, it } from 'vitest';
import { AbortedError, RateLimitError, ServerError } from '../../src/errors.js';
import { JobStore } from '../../src/jobs/store.js';
import { type Step, waitForJob } from '../../src/jobs/wait.js';
import { runNext } from '../../src/next-call.js';

const progress = () => {
  const lines: { message: string; fraction?: number }[] = [];
  return { lines, report: (message: string, fraction?: number) => lines.push({ message, fraction }) };
};
const running = (message: string, retryAfterMs?: number, fraction?: number): Step<string> => ({
  done: false,
  state: 'running',
  message,
  retryAfterMs,
  fraction,
});

describe('waitForJob', () => {
  it('polls until done, following the server hint, and reports each state in words', async () => {
    const steps: Step<string>[] = [
      running('in queue, position 2', 5),
      running('rendering, 40%', 5, 0.4),
      { done: true, value: 'ok' },
    ];
    const p = progress();
    const outcome = await waitForJob({
      poll: async () => steps.shift()!,
      progress: p,
      signal: new AbortController().signal,
      deadlineMs: 5_000,
    });
    expect(outcome).toMatchObject({ done: true, value: 'ok', polls: 3 });
    expect(p.lines.map((l) => l.message)).toEqual(['in queue, position 2', 'rendering, 40%']);
    expect(outcome.waitedMs).toBeLessThan(500);
  });

  it('never reports a smaller fraction than before', async () => {
    const steps: Step<string>[] = [running('a', 1, 0.5), running('b', 1, 0.3), { done: true, value: 'x' }];
    const p = progress();
    await waitForJob({
      poll: async () => steps.shift()!,
      progress: p,
      signal: new AbortController().signal,
      deadlineMs: 1_000,
    });
    expect(p.lines.map((l) => l.fraction)).toEqual([0.5, 0.5]);
  });

  it('returns the last state, not an error, when the deadline passes', async () => {
    const p = progress();
    const outcome = await waitForJob<string>({
      poll: async () => running('rendering', 20),
      progress: p,
      signal: new AbortController().signal,
      deadlineMs: 100,
    });
    expect(outcome.done).toBe(false);
    if (!outcome.done) expect(outcome.last?.message).toBe('rendering');
    expect(outcome.polls).toBeGreaterThan(2);
  });

  it('waits out a rate limit for as long as Retry-After says', async () => {
    let calls = 0;
    const started = Date.now();
    const outcome = await waitForJob({
      poll: async () => {
        calls += 1;
        if (calls === 1) throw new RateLimitError('slow down', { retryAfterMs: 200 });
        return { done: true, value: Date.now() - started };
      },
      progress: progress(),
      signal: new AbortController().signal,
      deadlineMs: 5_000,
    });
    expect(outcome.done && outcome.value).toBeGreaterThanOrEqual(190);
  });

  it('rides out a few transient failures but not a fourth in a row', async () => {
    let calls = 0;
    const poll = async (): Promise<Step<string>> => {
      calls += 1;
      throw new ServerError(`boom ${calls}`, { status: 503 });
    };
    await expect(
      waitForJob({
        poll,
        progress: progress(),
        signal: new AbortController().signal,
        deadlineMs: 10_000,
        interval: { initialMs: 1, maxMs: 1 },
      }),
    ).rejects.toThrow('boom 4');
  });

  it('stops at once when cancelled, aborting the poll in flight', async () => {
    const controller = new AbortController();
    let inflight: AbortSignal | undefined;
    const wait = waitForJob<string>({
      poll: (signal) => {
        inflight = signal;
        return new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      },
      progress: progress(),
      signal: controller.signal,
      deadlineMs: 10_000,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(wait).rejects.toBeInstanceOf(AbortedError);
    expect(inflight?.aborted).toBe(true);
  });
});

describe('JobStore', () => {
  it('keeps jobs per tenant and merges updates', async () => {
    const store = new JobStore({ now: () => 0 });
    const a = store.forTenant('a');
    a.record({ id: 'j1', kind: 'video', status: 'IN_QUEUE', next: runNext('video_status', 'j1') });
    a.record({ id: 'j1', kind: 'video', status: 'COMPLETED' });
    expect(await a.get('j1')).toMatchObject({
      status: 'COMPLETED',
      next: { tool: 'video_status', arguments: { run_id: 'j1' } },
    });
    expect(await store.forTenant('b').get('j1')).toBeUndefined();
    expect(await store.forTenant('b').list()).toEqual([]);
    expect(await a.list()).toHaveLength(1);
  });

  it('keeps at most 500 jobs per tenant, forgetting the one changed longest ago', async () => {
    const store = new JobStore({ now: () => 0 });
    const a = store.forTenant('a');
    for (let n = 0; n < 501; n++) a.record({ id: `j${n}`, kind: 'evaluation' });
    expect(await a.list()).toHaveLength(500);
    expect(await a.get('j0')).toBeUndefined();
    expect(await a.get('j500')).toBeDefined();
  });
});

describe('hand-back on shutdown', () => {
  it('ends a wait at once with the last state when the server hands its jobs back', async () => {
    const handBack = new AbortController();
    const p = progress();
    const waiting = waitForJob<string>({
      poll: async () => running('rendering, 40%', 60_000, 0.4),
      progress: p,
      signal: new AbortController().signal,
      deadlineMs: 600_000,
      handBack: handBack.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    handBack.abort();
    const outcome = await waiting;
    expect(outcome.done).toBe(false);
    if (!outcome.done) expect(outcome.last?.message).toBe('rendering, 40%');
  });
});
