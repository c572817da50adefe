import { z } from 'zod';
import { Reshape } from './drift/reshape.js';

/**
 * Faults tests switch on to prove the client's behaviour: latency, error statuses, dropped or
 * failing streams, malformed bodies. Each fault applies to the next `times` matching requests.
 */
export const FaultSpec = z.strictObject({
  match: z
    .strictObject({
      method: z.string().optional(),
      /** Exact path, or a prefix ending in `*`. */
      path: z.string().optional(),
    })
    .optional(),
  times: z.number().int().positive().default(1),
  /** Stays until cleared or removed, whatever `times` says (e.g. a route that answers 404 for a whole test). */
  persist: z.boolean().optional(),
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  status: z.number().int().min(200).max(599).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
  message: z.string().optional(),
  code: z.string().optional(),
  /** Reply body used verbatim instead of the route's error envelope. */
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** SSE: send this many frames, then destroy the socket (no terminal marker). */
  cutStreamAfterEvents: z.number().int().min(0).optional(),
  /** SSE: send this many frames, then the format's mid-stream error and `[DONE]`. */
  streamErrorAfterEvents: z.number().int().min(0).optional(),
  /**
   * The route runs (whatever it does happens), then the connection is cut before its reply: a reply
   * lost on the way back, which only an idempotent retry can recover.
   */
  dropReply: z.boolean().optional(),
  /** 200 with a body that is not valid JSON (or a broken SSE frame for stream requests). */
  malformedBody: z.boolean().optional(),
  /** Text routes leave usage out (no usage chunk even when asked; no `usage` field), keeping the pricing object. */
  omitUsage: z.boolean().optional(),
  /** The route runs, then its JSON reply is shaped otherwise (a platform that drifted from the sandbox). */
  reshape: Reshape.optional(),
});
export type FaultSpec = z.input<typeof FaultSpec>;
export type ActiveFault = z.output<typeof FaultSpec> & { id: string };

export interface ListedFault extends ActiveFault {
  remaining: number;
}

/** Stream faults only make sense on a streaming request, so they wait for one. */
export const isStreamFault = (fault: ActiveFault): boolean =>
  fault.cutStreamAfterEvents !== undefined || fault.streamErrorAfterEvents !== undefined;

export class FaultControl {
  private faults: ListedFault[] = [];
  private counter = 0;

  /** Adds a fault and returns its id; throws a zod error when the spec is invalid. */
  add(spec: FaultSpec): string {
    const parsed = FaultSpec.parse(spec);
    this.counter += 1;
    const id = `fault_${this.counter}`;
    this.faults.push({ ...parsed, id, remaining: parsed.times });
    return id;
  }

  /** Removes every fault; returns how many were pending. */
  clear(): number {
    const count = this.faults.length;
    this.faults = [];
    return count;
  }

  /** Removes one fault by id; false when it is not pending. */
  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length < before;
  }

  list(): readonly ListedFault[] {
    return this.faults;
  }

  /** The first pending fault matching this request, used up by one. */
  take(method: string, path: string, streaming: boolean): ActiveFault | undefined {
    const index = this.faults.findIndex((fault) => matches(fault, method, path, streaming));
    if (index < 0) return undefined;
    const fault = this.faults[index]!;
    if (!fault.persist) fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults.splice(index, 1);
    const { remaining: _remaining, ...active } = fault;
    return active;
  }
}

function matches(fault: ActiveFault, method: string, path: string, streaming: boolean): boolean {
  if (isStreamFault(fault) && !streaming) return false;
  const want = fault.match;
  if (want?.method && want.method.toUpperCase() !== method.toUpperCase()) return false;
  if (want?.path) {
    if (want.path.endsWith('*')) return path.startsWith(want.path.slice(0, -1));
    return path === want.path;
  }
  return true;
}

export function defaultFaultMessage(status: number): string {
  if (status === 429) return 'Rate limit exceeded; slow down (sandbox fault).';
  if (status === 404) return 'Not found: this route is switched off (sandbox fault).';
  if (status === 503) return 'Service temporarily unavailable (sandbox fault).';
  if (status === 504 || status === 408) return 'Upstream timed out (sandbox fault).';
  return `Upstream error ${status} (sandbox fault).`;
}

export function defaultFaultCode(status: number): string | undefined {
  if (status === 429) return 'rate_limit_exceeded';
  if (status === 404) return 'not_found';
  if (status === 503) return 'service_unavailable';
  if (status >= 500) return 'server_error';
  return undefined;
}
