import { z } from 'zod';
import { JobFailedError, type OrbitErrorOptions } from '../errors.js';
import type { NextCall } from '../next-call.js';
import type { Progress } from '../progress.js';
import type { JobPatch, Jobs } from './store.js';
import { type PollInterval, type Step, type WaitOutcome, waitForJob } from './wait.js';

/**
 * Following a long job, the same way for every kind: record it, wait for it within `max_wait_s` with
 * progress and cancellation, keep its record current, and when that time runs out hand back the
 * job id with the call that continues it. Tools say how to poll and what the result means.
 */

/**
 * How long a plain call waits before handing back the run id (client timeouts are often 60 s). Each
 * tool's description says what comes back past it, so the parameter carries no text of its own.
 */
export const MaxWait = z.number().default(50);
/** Waits are bounded: at most ten minutes in one call; past it the run id and the next call come back. */
const MAX_WAIT_S = 600;

/** What a job follower needs of the tool context. */
export interface JobScope {
  jobs: Jobs;
  progress: Progress;
  signal: AbortSignal;
}

/** How long a wait of `max_wait_s` may last, bounded. */
function waitLimitMs(maxWaitS: number): number {
  return Math.min(Math.max(0, maxWaitS), MAX_WAIT_S) * 1000;
}

export interface FollowSpec<T> {
  id: string;
  kind: string;
  model?: string;
  /** The call that continues the job while it runs (see next.ts). */
  next: NextCall;
  maxWaitS: number;
  startMessage: string;
  interval?: Partial<PollInterval>;
  /** One status request; it must pass `signal` on, so cancelling aborts it in flight. */
  poll(signal: AbortSignal): Promise<Step<T>>;
  /** Kept with the record so a later call can resume polling (a ticket, the model). */
  resume?: Record<string, unknown>;
}

export async function followJob<T>(scope: JobScope, spec: FollowSpec<T>): Promise<WaitOutcome<T>> {
  const { id, kind } = spec;
  scope.jobs.record({ id, kind, model: spec.model, next: spec.next, resume: spec.resume });
  const outcome = await waitForJob<T>({
    signal: scope.signal,
    progress: scope.progress,
    deadlineMs: waitLimitMs(spec.maxWaitS),
    startMessage: spec.startMessage,
    interval: spec.interval,
    poll: spec.poll,
    onPending: (step, polls) =>
      scope.jobs.record({
        id,
        kind,
        status: step.status ?? step.state,
        message: step.message,
        progress: step.fraction,
        polls,
      }),
  });
  if (!outcome.done) scope.jobs.record({ id, kind, next: spec.next });
  return outcome;
}

/** Records a finished job and its result. */
export function jobDone(scope: Pick<JobScope, 'jobs'>, patch: JobPatch): void {
  scope.jobs.record({ status: 'completed', progress: 1, next: null, ...patch });
}

/** Records a failed job and returns the error to throw: what failed, and how to go on. */
export function jobFailed(
  scope: Pick<JobScope, 'jobs'>,
  patch: JobPatch & { error: string },
  message: string,
  options: OrbitErrorOptions & { fix: string },
): JobFailedError {
  scope.jobs.record({ status: 'failed', next: null, ...patch });
  return new JobFailedError(message, { ...options, details: { run_id: patch.id, ...options.details } });
}
