import { setFlagsFromString } from 'node:v8';

/** While large payloads flow, the old generation may grow by half its live size between full collections. */
export const BOUNDED_GROWING_PERCENT = 50;
/** A payload this large is media (an image, audio, a download), not a message: chat and JSON replies are a few KiB. */
export const LARGE_PAYLOAD_BYTES = 64 * 1024;
/** The bound holds this long after the last large payload. */
export const BOUND_HOLD_MS = 60_000;

/**
 * How far a long-lived server's heap (HTTP or stdio) may grow between full collections.
 *
 * V8 lets the old generation grow up to 4x its live size when allocation is fast. For small
 * requests that is the right trade: a 2025 session's short-lived request garbage is collected
 * rarely, and a tighter bound costs CPU on every call (more full collections). Large payloads are
 * different: base64 media and downloads are big strings and buffers that die young but land in the
 * old generation, and at 4x they stay in RSS long after. So growth is bounded only while large
 * payloads pass, and for a minute after (the measurements: bench/NOTES.md).
 * V8 reads the setting at each full collection: the next one after a change takes it up.
 */
export class HeapGrowth {
  private bounded = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly setPercent: (percent: number) => void,
    private readonly holdMs = BOUND_HOLD_MS,
  ) {}

  get isBounded(): boolean {
    return this.bounded;
  }

  /** A payload of `bytes` passed through: a large one bounds growth (again) for the hold time. */
  notePayload(bytes: number): void {
    if (bytes < LARGE_PAYLOAD_BYTES) return;
    if (!this.bounded) {
      this.bounded = true;
      this.setPercent(BOUNDED_GROWING_PERCENT);
    }
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(() => this.relax(), this.holdMs).unref();
  }

  /** Hands the factor back to V8 now (the hold ran out, or the server stops). */
  relax(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.bounded = false;
    // 0 hands the factor back to V8's own heuristic.
    this.setPercent(0);
  }
}

let active: HeapGrowth | undefined;

/**
 * Turns the policy on for this process (either transport). An operator's own
 * `--heap-growing-percent` (command line or NODE_OPTIONS) wins: then nothing is changed.
 */
export function manageHeapGrowth(): HeapGrowth | undefined {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
    /heap[-_]growing[-_]percent/.test(arg),
  );
  if (chosen) return undefined;
  active ??= new HeapGrowth((percent) => setFlagsFromString(`--heap-growing-percent=${percent}`));
  return active;
}

/**
 * Told of each payload that passes: a platform reply body, a request body, a saved file sent inline
 * or read as a resource (a no-op unless the policy is on).
 */
export function notePayload(bytes: number): void {
  active?.notePayload(bytes);
}
