import { AbortedError } from './errors.js';

/**
 * Helpers of the language that every side of the server uses, kept once (the sandbox, which
 * imports nothing of ours, keeps its own).
 */

/** A plain object (not null, not an array): what a JSON object parses to. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value a JSON text parses to, or undefined when it is not JSON. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Sleeps, rejecting with AbortedError (`cancelled` its message) the moment the signal aborts;
 * `wake` ends the sleep early.
 */
export function sleep(
  ms: number,
  signal: AbortSignal,
  options: { wake?: AbortSignal; cancelled?: string } = {},
): Promise<void> {
  const { wake, cancelled } = options;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError(cancelled));
    if (wake?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      wake?.removeEventListener('abort', onWake);
    };
    const onAbort = () => {
      done();
      reject(new AbortedError(cancelled));
    };
    const onWake = () => {
      done();
      resolve();
    };
    const timer = setTimeout(onWake, ms);
    signal.addEventListener('abort', onAbort, { once: true });
    wake?.addEventListener('abort', onWake, { once: true });
  });
}
