import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** While large payloads flow, the old generation may grow by half its live size between full collections. */
export const BOUNDED_GROWING_PERCENT = 50;
/** A payload this large is media (an image, audio, a download), not a message: chat and JSON replies are a few KiB. */
export const LARGE_PAYLOAD_BYTES = 64 * 1024;
/** The bound holds this long after the last large payload. */
export const BOUND_HOLD_MS = 60_000;
/**
 * Over stdio the old generation may always grow by its live size between full collections, not
 * V8's 4x: a stdio server serves one person, whose calls come one at a time, so the extra full
 * collections cost little, and short-lived call garbage that outlives a scavenge (refused calls
 * included) otherwise piles up in RSS (bench/NOTES.md).
 */
export const STDIO_GROWING_PERCENT = 100;

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

  /** `restingPercent`: the growth between media (0: V8's own heuristic). */
  constructor(
    private readonly setPercent: (percent: number) => void,
    private readonly holdMs = BOUND_HOLD_MS,
    private readonly restingPercent = 0,
  ) {
    if (restingPercent) setPercent(restingPercent);
  }

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

  /** Back to the resting growth now (the hold ran out, or the server stops). */
  relax(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.bounded = false;
    this.setPercent(this.restingPercent);
  }
}

/** The young generation's semi-space stops growing at this size (V8's own limit is 16 MiB on 64-bit). */
export const YOUNG_SEMI_SPACE_CAP_BYTES = 8 * 1024 * 1024;

/**
 * Caps the young generation at YOUNG_SEMI_SPACE_CAP_BYTES a semi-space, the runtime twin of
 * `--max-semi-space-size=8`, which only a command line can set. V8 doubles the young generation
 * after scavenges where much survives, up to 2 x 16 MiB; a server whose calls leave a few KiB of
 * garbage each gains little CPU from the last doubling, and its RSS keeps the 16 MiB
 * (bench/NOTES.md). V8 reads the growth factor at each resize, so after each minor collection the
 * factor is 1 (no growth) at the cap and V8's 2 below it: a young generation V8 shrank may grow back.
 */
export class YoungGeneration {
  private capped = false;

  constructor(
    private readonly setGrowthFactor: (factor: number) => void,
    private readonly newSpaceBytes: () => number,
    private readonly capBytes = YOUNG_SEMI_SPACE_CAP_BYTES,
  ) {}

  get isCapped(): boolean {
    return this.capped;
  }

  /** After a minor collection: hold the young generation at the cap, or let it grow again. */
  afterScavenge(): void {
    // The new space holds two semi-spaces.
    const atCap = this.newSpaceBytes() >= 2 * this.capBytes;
    if (atCap === this.capped) return;
    this.capped = atCap;
    this.setGrowthFactor(atCap ? 1 : 2);
  }
}

let active: HeapGrowth | undefined;
let young: PerformanceObserver | undefined;

/** The operator set a V8 flag matching `flag` (command line or NODE_OPTIONS): theirs wins. */
const operatorChose = (flag: RegExp) =>
  [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => flag.test(arg));

/** Starts the young-generation cap unless the operator sized it. */
function capYoungGeneration(): void {
  if (young || operatorChose(/semi[-_]space/)) return;
  const generation = new YoungGeneration(
    (factor) => setFlagsFromString(`--semi-space-growth-factor=${factor}`),
    () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0,
  );
  young = new PerformanceObserver((list) => {
    const minor = (entry: PerformanceEntry) =>
      ((entry as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind ===
      constants.NODE_PERFORMANCE_GC_MINOR;
    if (list.getEntries().some(minor)) generation.afterScavenge();
  });
  young.observe({ entryTypes: ['gc'] });
}

/**
 * Turns the policy on for this process, for the transport it serves. An operator's own
 * `--heap-growing-percent` (command line or NODE_OPTIONS) wins: then nothing is changed.
 */
export function manageHeapGrowth(transport: 'stdio' | 'http'): HeapGrowth | undefined {
  capYoungGeneration();
  if (operatorChose(/heap[-_]growing[-_]percent/)) return undefined;
  active ??= new HeapGrowth(
    (percent) => setFlagsFromString(`--heap-growing-percent=${percent}`),
    BOUND_HOLD_MS,
    transport === 'stdio' ? STDIO_GROWING_PERCENT : 0,
  );
  return active;
}

/**
 * Told of each payload that passes: a platform reply body, a request body, a saved file sent inline
 * or read as a resource (a no-op unless the policy is on).
 */
export function notePayload(bytes: number): void {
  active?.notePayload(bytes);
}
