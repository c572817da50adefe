import { SandboxError } from '../errors.js';
import type { SandboxContext } from '../types.js';

/** A per-minute window per caller and route (video recover and extend: 20 a minute). */
export function perMinute(ctx: SandboxContext, route: string, caller: string, limit: number): void {
  const windows = ctx.state.collection<number[]>('media.rate');
  const key = `${route}|${caller}`;
  const now = ctx.now();
  const recent = (windows.get(key) ?? []).filter((at) => now - at < 60_000);
  if (recent.length >= limit) {
    const seconds = Math.max(1, Math.ceil((60_000 - (now - (recent[0] ?? now))) / 1000));
    windows.set(key, recent);
    throw new SandboxError(429, `Rate limit: ${limit} requests per minute on ${route}.`, {
      code: 'RATE_LIMITED',
      type: 'RATE_LIMITED',
      headers: { 'Retry-After': String(seconds) },
    });
  }
  recent.push(now);
  windows.set(key, recent);
}
