import type { Context } from 'hono';
import type { SandboxContext, SandboxEnv, SandboxTiming } from '../types.js';

/** Job durations when the sandbox options do not set them: long enough to watch, short enough to wait for. */
const DEFAULTS = { videoQueueMs: 2_000, videoRenderMs: 4_000, speechJobMs: 1_500, transcriptionJobMs: 1_500 };

export function jobTiming(ctx: SandboxContext, name: keyof typeof DEFAULTS & keyof SandboxTiming): number {
  return ctx.timing[name] ?? DEFAULTS[name];
}

/** Where a job is at `now`: queued (with a position that counts down), running (percent), or done. */
export type Phase =
  | { state: 'queued'; position: number; remainingMs: number }
  | { state: 'running'; percent: number; remainingMs: number }
  | { state: 'done' };

export function phaseAt(createdAt: number, now: number, queueMs: number, runMs: number): Phase {
  const elapsed = now - createdAt;
  if (elapsed < queueMs) {
    const left = queueMs - elapsed;
    return {
      state: 'queued',
      position: Math.max(1, Math.ceil((3 * left) / queueMs)),
      remainingMs: left + runMs,
    };
  }
  if (elapsed < queueMs + runMs) {
    const done = elapsed - queueMs;
    return {
      state: 'running',
      percent: Math.min(99, Math.floor((100 * done) / runMs)),
      remainingMs: runMs - done,
    };
  }
  return { state: 'done' };
}

/** The poll hint header on pending replies, when the sandbox options ask for one. */
export function hintHeaders(c: Context<SandboxEnv>, ctx: SandboxContext): void {
  if (ctx.timing.pollHintMs !== undefined) {
    c.header('retry-after-ms', String(ctx.timing.pollHintMs));
    c.header('Retry-After', String(Math.max(1, Math.ceil(ctx.timing.pollHintMs / 1000))));
  }
}
