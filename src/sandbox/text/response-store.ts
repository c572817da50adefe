import { refund } from '../billing.js';
import { PRICING_FIELD } from '../constants.js';
import { SandboxError } from '../errors.js';
import { phaseAt } from '../media/jobs.js';
import type { KeyRecord, SandboxState } from '../state.js';
import type { SandboxContext } from '../types.js';

/**
 * Stored responses (spec 2 §4.2, §8): kept per key for their retention (`retention_days` 0..365,
 * else the user's default, else the team's, else 30 days), readable by id, continued through
 * `previous_response_id`. Background responses go queued -> in_progress -> completed on the sandbox
 * clock and can be cancelled until they complete.
 */
const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
/** Background timings when the sandbox options do not set them. */
const QUEUE_MS = 1_000;
const RUN_MS = 2_000;

/** One turn of a stored conversation, as the next request's model sees it. */
export interface Turn {
  role: string;
  text: string;
  /** Function calls an assistant turn made, by call id. */
  calls?: { callId: string; name: string }[];
  /** For a tool turn: the tool whose output it is. */
  tool?: string;
}

export interface StoredResponse {
  id: string;
  owner: string;
  key: KeyRecord;
  /** The finished response object. */
  body: Record<string, unknown>;
  /** Every turn up to and including this response's output. */
  history: Turn[];
  createdAt: number;
  expiresAt: number;
  retentionDays: number;
  background: boolean;
  costUsd: number;
  cancelledAt?: number;
}

export type Status = 'queued' | 'in_progress' | 'completed' | 'incomplete' | 'cancelled';

/** Where users and teams keep their retention defaults (the settings routes write these, by account id). */
export const USER_RETENTION = 'responses.retention.user';
export const TEAM_RETENTION = 'responses.retention.team';

export function retentionFor(state: SandboxState, key: KeyRecord, asked: number | undefined): number {
  if (asked !== undefined) return asked;
  const user = state.collection<number | null>(USER_RETENTION).get(key.account.id);
  if (typeof user === 'number') return user;
  const team = state.collection<number | null>(TEAM_RETENTION).get(key.account.id);
  return typeof team === 'number' ? team : DEFAULT_RETENTION_DAYS;
}

export const expiryOf = (createdAt: number, days: number): number => createdAt + days * DAY_MS;

export const responses = (ctx: SandboxContext) => ctx.state.collection<StoredResponse>('responses');

/** A live response of this key, or 404 (unknown, another key's, or past its retention). */
export function findResponse(
  ctx: SandboxContext,
  key: KeyRecord,
  id: string,
  param?: string,
): StoredResponse {
  const store = responses(ctx);
  const stored = store.get(id);
  const where = param ? { param } : {};
  if (!stored || stored.owner !== key.key)
    throw new SandboxError(404, `Response "${id}" not found for this key.`, { code: 'not_found', ...where });
  if (stored.expiresAt <= ctx.now()) {
    store.delete(id);
    throw new SandboxError(
      404,
      `Response "${id}" has expired: it was kept ${stored.retentionDays} days (retention_days).`,
      { code: 'not_found', ...where },
    );
  }
  return stored;
}

export function statusOf(ctx: SandboxContext, stored: StoredResponse): Status {
  if (stored.cancelledAt !== undefined) return 'cancelled';
  const final = stored.body.status === 'incomplete' ? 'incomplete' : 'completed';
  if (!stored.background) return final;
  const phase = phaseAt(
    stored.createdAt,
    ctx.now(),
    ctx.timing.responseQueueMs ?? QUEUE_MS,
    ctx.timing.responseRunMs ?? RUN_MS,
  );
  if (phase.state === 'queued') return 'queued';
  return phase.state === 'running' ? 'in_progress' : final;
}

/** The object as it stands now: a pending or cancelled one has no output or usage yet. */
export function currentBody(ctx: SandboxContext, stored: StoredResponse): Record<string, unknown> {
  const status = statusOf(ctx, stored);
  if (status === 'completed' || status === 'incomplete') return stored.body;
  return pendingBody(stored.body, status);
}

export function pendingBody(body: Record<string, unknown>, status: Status): Record<string, unknown> {
  // The charge is settled, but the pricing object only comes with the finished response.
  const { [PRICING_FIELD]: _pricing, ...rest } = body;
  return { ...rest, status, incomplete_details: null, output: [], output_text: '', usage: null };
}

/** Cancels a background response; a queued one is refunded, one already running keeps its charge. */
export function cancelResponse(ctx: SandboxContext, stored: StoredResponse): void {
  if (!stored.background) {
    throw new SandboxError(400, 'Only background responses can be cancelled.', {
      code: 'invalid_parameter_value',
    });
  }
  const status = statusOf(ctx, stored);
  if (status !== 'queued' && status !== 'in_progress') return;
  if (status === 'queued') refund(stored.key, stored.costUsd);
  stored.cancelledAt = ctx.now();
}
