import type { LongCall } from '../../define-tool.js';

/**
 * Whether a POST of a 2025 session gets a resumable stream from its start (the SDK's priming
 * event: an event id, and how soon to reconnect). Only a call that can outlive its connection
 * needs one: a call of a tool that waits on a platform job, or one that reports progress when the
 * client asked for progress. Everything else answers at once, without it: a priming event per
 * call cost CPU, and a client that cannot read an empty event logged an error for each.
 */
export function outlivesConnection(body: unknown, long: ReadonlyMap<string, LongCall>): boolean {
  if (long.size === 0) return false;
  if (Array.isArray(body)) return body.some((message) => outlives(message, long));
  return outlives(body, long);
}

function outlives(message: unknown, long: ReadonlyMap<string, LongCall>): boolean {
  const call = message as {
    method?: unknown;
    params?: { name?: unknown; _meta?: { progressToken?: unknown } };
  };
  if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') return false;
  const kind = long.get(call.params.name);
  return kind === 'job' || (kind === 'progress' && call.params._meta?.progressToken !== undefined);
}
