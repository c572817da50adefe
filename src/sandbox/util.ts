import { createHash } from 'node:crypto';

/** Waits, but gives up early when the signal aborts (client gone or sandbox closing). */
export function sleep(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const live = signals.filter((s): s is AbortSignal => s !== undefined);
    const done = () => {
      clearTimeout(timer);
      for (const s of live) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of live) {
      if (s.aborted) return done();
      s.addEventListener('abort', done, { once: true });
    }
  });
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A small stable number from a string, for picking deterministic variations. */
export function stableHash(text: string): number {
  return Number.parseInt(sha256Hex(text).slice(0, 8), 16);
}

/** Rounds USD amounts to the nano-dollar so replies never show float noise. */
export const roundUsd = (usd: number): number => Math.round(usd * 1e9) / 1e9;

export const pad = (n: number, width = 6): string => String(n).padStart(width, '0');

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text matched literally inside a RegExp. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
