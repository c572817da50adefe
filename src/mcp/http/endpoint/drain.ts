import type { IncomingMessage, ServerResponse } from 'node:http';
import { refuse } from '../auth/refuse.js';

export interface DrainSteps {
  /** How long running calls get to finish. */
  deadlineMs: number;
  /** At the deadline, with a shared store: calls that follow a job go to other replicas. */
  handOver?: () => Promise<number>;
  /** At the deadline: every job wait ends and its call answers with the job id to resume. */
  handBack: () => void;
  /** After the hand-back, how long the answers get to go out. */
  graceMs?: number;
}

/**
 * Graceful shutdown of the HTTP endpoint (SIGTERM): from the first moment no new request is taken
 * (503 with Retry-After, so a load balancer or proxy sends it to another replica) and streams that
 * only listen are closed (their clients reconnect elsewhere); running calls get until the
 * deadline, then hand their jobs over (shared store) or back (their result names the call that
 * continues); then the process may exit.
 */
export class Drain {
  private state: 'serving' | 'draining' = 'serving';
  /** Requests running calls (POST), which the drain waits for. */
  private readonly calls = new Set<ServerResponse>();
  /** Open GET streams, which only listen or relay: closed when the drain starts. */
  private readonly streams = new Set<ServerResponse>();
  private settled?: () => void;

  get draining(): boolean {
    return this.state === 'draining';
  }

  /** Counts the request until its response closes. */
  track(req: IncomingMessage, res: ServerResponse): void {
    const set = req.method === 'GET' ? this.streams : this.calls;
    set.add(res);
    // 'close' comes once: a plain listener, without the wrapper `once` makes per request.
    res.on('close', () => {
      set.delete(res);
      if (this.calls.size === 0) this.settled?.();
    });
  }

  /** The answer to a request that arrives while draining: try another replica. */
  refuse(res: ServerResponse): void {
    refuse(
      res,
      503,
      'draining',
      'This server is shutting down; send the request again (another replica takes it).',
      { 'retry-after': '1', connection: 'close' },
    );
  }

  /** Resolves once no call runs here any more, or the deadline and the hand-back grace have passed. */
  async drain(steps: DrainSteps): Promise<{ finished: boolean; handedOver: number }> {
    this.state = 'draining';
    for (const res of this.streams) res.end();
    if (await this.idleWithin(steps.deadlineMs)) return { finished: true, handedOver: 0 };
    const handedOver = (await steps.handOver?.()) ?? 0;
    steps.handBack();
    await this.idleWithin(steps.graceMs ?? 5_000);
    return { finished: false, handedOver };
  }

  private idleWithin(ms: number): Promise<boolean> {
    if (this.calls.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.settled = undefined;
        resolve(false);
      }, ms);
      this.settled = () => {
        clearTimeout(timer);
        this.settled = undefined;
        resolve(true);
      };
    });
  }
}
