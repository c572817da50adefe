import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgress, type SendProgress } from '../../../src/mcp/progress.js';

type Sent = Parameters<SendProgress>[0];

function recorder() {
  const sent: Sent[] = [];
  const send: SendProgress = async (params) => {
    sent.push(params);
  };
  return { sent, send };
}

/** Lets the promise chain inside createProgress deliver what it has queued. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createProgress', () => {
  it('sends nothing without a progress token', async () => {
    const { sent, send } = recorder();
    const progress = createProgress(undefined, send, 100);
    progress.report('starting', 0.1);
    progress.report('halfway', 0.5);
    await vi.advanceTimersByTimeAsync(1_000);
    await progress.flush();
    expect(sent).toEqual([]);
  });

  it('sends the first report at once with the token, a percentage of 100 and the message', async () => {
    const { sent, send } = recorder();
    const progress = createProgress('tok-1', send, 100);
    progress.report('Uploading', 0.25);
    await settle();
    expect(sent).toEqual([{ progressToken: 'tok-1', progress: 25, total: 100, message: 'Uploading' }]);
  });

  it('counts up by one without a total when no fraction is known', async () => {
    const { sent, send } = recorder();
    const progress = createProgress(7, send, 100);
    progress.report('queued');
    await vi.advanceTimersByTimeAsync(150);
    progress.report('running');
    await settle();
    expect(sent).toEqual([
      { progressToken: 7, progress: 1, message: 'queued' },
      { progressToken: 7, progress: 2, message: 'running' },
    ]);
  });

  it('keeps values strictly increasing when fractions go backwards', async () => {
    const { sent, send } = recorder();
    const progress = createProgress('t', send, 100);
    for (const fraction of [0.5, 0.3, 0.3, 0.8, 0.1]) {
      progress.report(`at ${fraction}`, fraction);
      await vi.advanceTimersByTimeAsync(150);
    }
    await progress.flush();
    const values = sent.map((params) => params.progress);
    expect(values).toHaveLength(5);
    expect(values[0]).toBe(50);
    expect(values[3]).toBe(80);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]!);
    expect(sent.map((params) => params.message)).toEqual(['at 0.5', 'at 0.3', 'at 0.3', 'at 0.8', 'at 0.1']);
  });

  it('clamps fractions outside [0, 1]', async () => {
    const { sent, send } = recorder();
    const progress = createProgress('t', send, 100);
    progress.report('over', 1.7);
    await settle();
    expect(sent[0]?.progress).toBe(100);
  });

  it('coalesces a burst into the first report and the latest one at the end of the window', async () => {
    const { sent, send } = recorder();
    const progress = createProgress('t', send, 100);
    for (let i = 1; i <= 10; i++) progress.report(`step ${i}`, i / 10);
    await settle();
    expect(sent.map((params) => params.message)).toEqual(['step 1']);
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((params) => params.message)).toEqual(['step 1', 'step 10']);
    expect(sent[1]?.progress).toBe(100);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toHaveLength(2);
  });

  it('sends the latest pending message on flush without waiting for the window', async () => {
    const { sent, send } = recorder();
    const progress = createProgress('t', send, 10_000);
    progress.report('first', 0.1);
    progress.report('second', 0.2);
    progress.report('last', 0.9);
    await progress.flush();
    expect(sent.map((params) => [params.message, params.progress])).toEqual([
      ['first', 10],
      ['last', 90],
    ]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(sent).toHaveLength(2);
  });

  it('sends nothing more on flush when nothing is pending', async () => {
    const { sent, send } = recorder();
    const progress = createProgress('t', send, 100);
    progress.report('only', 0.5);
    await progress.flush();
    await progress.flush();
    expect(sent).toHaveLength(1);
  });

  it('keeps going after a failed send', async () => {
    const sent: Sent[] = [];
    let calls = 0;
    const send: SendProgress = async (params) => {
      calls++;
      if (calls === 1) throw new Error('client gone');
      sent.push(params);
    };
    const progress = createProgress('t', send, 100);
    progress.report('a', 0.1);
    await vi.advanceTimersByTimeAsync(150);
    progress.report('b', 0.2);
    await expect(progress.flush()).resolves.toBeUndefined();
    expect(sent.map((params) => params.message)).toEqual(['b']);
  });
});
