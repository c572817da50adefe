import {
  AbortedError,
  ConnectionError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UpstreamTimeoutError,
} from '../errors.js';
import { sleep } from '../lang.js';
import type { Progress } from '../progress.js';

const CANCELLED_WAITING = 'Cancelled while waiting; the job itself may still run.';

/**
 * The one waiting machine for long jobs (video, async speech, async transcription): poll with a
 * deadline, say in words what is happening, follow the server's hint for when to ask again, and
 * stop at once (aborting the request in flight) when the caller cancels.
 */

/** What one poll saw. `done` carries the final value; anything else is still under way. */
export type Step<T> =
  | { done: true; value: T }
  | {
      done: false;
      /** Normalized state for records: queued, running, or unknown. */
      state: 'queued' | 'running' | 'unknown';
      /** A readable line: "in queue, position 3", "rendering, 40%". */
      message: string;
      /** The platform's own status word, for the job record (IN_QUEUE, pending...). */
      status?: string;
      /** Share done in [0,1], when the platform says. */
      fraction?: number;
      /** The server's hint for the next poll (Retry-After on the reply). */
      retryAfterMs?: number;
    };

type Pending = Extract<Step<unknown>, { done: false }>;

export interface PollInterval {
  initialMs: number;
  maxMs: number;
  factor: number;
}

/** Without a server hint: 1 s, growing by half each time up to 5 s (the spec suggests 5 s). */
const DEFAULT_INTERVAL: PollInterval = { initialMs: 1_000, maxMs: 5_000, factor: 1.5 };
/** Hints are obeyed, within sane bounds. */
const MIN_HINT_MS = 10;
const MAX_HINT_MS = 60_000;
/** Transient failures (5xx, timeouts, dropped connections) tolerated in a row before giving up. */
const MAX_TRANSIENT = 3;

export interface WaitSpec<T> {
  /** One status request; it must pass `signal` on, so cancelling aborts it in flight. */
  poll(signal: AbortSignal): Promise<Step<T>>;
  progress: Progress;
  signal: AbortSignal;
  /** Total time to wait, from now. */
  deadlineMs: number;
  interval?: Partial<PollInterval>;
  /** Called after every poll that is still under way (job records, logs). */
  onPending?(step: Pending, polls: number): void;
  /** The first progress line, reported before the first poll. */
  startMessage?: string;
  /** Ends the wait as if the deadline had passed (the server is shutting down); the process's by default. */
  handBack?: AbortSignal;
  now?: () => number;
}

export type WaitOutcome<T> =
  | { done: true; value: T; polls: number; waitedMs: number }
  | { done: false; last: Pending | undefined; polls: number; waitedMs: number };

export async function waitForJob<T>(spec: WaitSpec<T>): Promise<WaitOutcome<T>> {
  const now = spec.now ?? Date.now;
  const interval = { ...DEFAULT_INTERVAL, ...spec.interval };
  const handBack = spec.handBack ?? handBackSignal;
  const started = now();
  const deadline = started + Math.max(0, spec.deadlineMs);
  let delay = interval.initialMs;
  let polls = 0;
  let transient = 0;
  let last: Pending | undefined;
  let fraction = 0;
  if (spec.startMessage) spec.progress.report(spec.startMessage);

  for (;;) {
    if (spec.signal.aborted) throw new AbortedError(CANCELLED_WAITING);
    let hintMs: number | undefined;
    try {
      polls += 1;
      const step = await spec.poll(spec.signal);
      transient = 0;
      if (step.done) return { done: true, value: step.value, polls, waitedMs: now() - started };
      last = step;
      // Progress never goes backwards, even when the platform's estimate does.
      if (step.fraction !== undefined) fraction = Math.max(fraction, Math.min(0.99, step.fraction));
      spec.progress.report(step.message, step.fraction !== undefined || fraction > 0 ? fraction : undefined);
      spec.onPending?.(step, polls);
      hintMs = step.retryAfterMs;
    } catch (error) {
      if (spec.signal.aborted) throw new AbortedError(CANCELLED_WAITING);
      if (error instanceof RateLimitError) {
        hintMs = error.retryAfterMs ?? delay;
        spec.progress.report(`status checks rate limited; next check in ${seconds(hintMs)}`);
      } else if (isTransient(error) && transient < MAX_TRANSIENT) {
        transient += 1;
        spec.progress.report(`status check failed (${(error as Error).message}); trying again`);
      } else {
        throw error;
      }
    }
    const remaining = deadline - now();
    if (remaining <= 0 || handBack.aborted) return { done: false, last, polls, waitedMs: now() - started };
    const wait =
      hintMs !== undefined ? Math.min(Math.max(hintMs, MIN_HINT_MS), MAX_HINT_MS) : Math.round(delay);
    if (hintMs === undefined) delay = Math.min(interval.maxMs, delay * interval.factor);
    await sleep(Math.min(wait, remaining), spec.signal, { wake: handBack, cancelled: CANCELLED_WAITING });
    if (handBack.aborted) return { done: false, last, polls, waitedMs: now() - started };
  }
}

function isTransient(error: unknown): boolean {
  return (
    error instanceof ServerError ||
    error instanceof UpstreamTimeoutError ||
    error instanceof ConnectionError ||
    error instanceof TimeoutError
  );
}

export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * Hand-back on shutdown: when a draining server reaches its deadline, every wait for a platform
 * job ends as if its time to wait had run out, so each call answers with its job id and the call
 * that continues it (`video_status with run_id …`) instead of being cut off. Process-wide: the
 * waits run deep inside tools, which know nothing of servers.
 */
const handBack = new AbortController();

/** Aborted once the process hands its jobs back. */
const handBackSignal: AbortSignal = handBack.signal;

export function handBackJobs(): void {
  handBack.abort();
}
