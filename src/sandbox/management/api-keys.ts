import { z } from 'zod';
import { badRequest } from '../errors.js';
import { fromNanos, type KeyRecord } from '../state.js';
import { isRecord, roundUsd } from '../util.js';

/**
 * API-key records of the management API. The spec does not show their fields; the sandbox's are
 * below. The secret is never part of a record: only the creation reply adds `key`.
 */

const isoInstant = z
  .string()
  .refine((text) => /(Z|[+-]\d{2}:\d{2})$/i.test(text) && !Number.isNaN(Date.parse(text)), {
    message: 'must be an ISO 8601 timestamp with a timezone',
  });

const limits = {
  daily_usd_limit: z.number().min(0).nullable().optional(),
  daily_request_limit: z.number().int().min(0).nullable().optional(),
  expires_at: isoInstant.nullable().optional(),
};

export const CreateKeyBody = z.strictObject({ name: z.string().trim().min(1).max(100), ...limits });
export const UpdateKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  disabled: z.boolean().optional(),
  ...limits,
});

/** Parses a body or answers the spec's 400 naming the first wrong field. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const first = issue?.code === 'unrecognized_keys' ? issue.keys[0] : issue?.path.join('.');
  const param = first || undefined;
  const missing =
    isRecord(body) &&
    issue?.code === 'invalid_type' &&
    issue.path.length === 1 &&
    !(String(issue.path[0]) in body);
  throw badRequest(
    `Invalid request body: ${z.prettifyError(parsed.error)}`,
    missing ? 'missing_required_parameter' : 'invalid_parameter_value',
    param,
  );
}

/** An expiry must lie in the future. */
export function futureExpiry(iso: string | null | undefined, now: number): number | null | undefined {
  if (iso === undefined || iso === null) return iso;
  const at = Date.parse(iso);
  if (at <= now)
    throw badRequest('`expires_at` must be in the future.', 'invalid_parameter_value', 'expires_at');
  return at;
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

/** `sk-orbit-…1234`: enough to recognise a key, never enough to use it. */
const keyPreview = (secret: string): string => `${secret.slice(0, 9)}…${secret.slice(-4)}`;

export function keyView(record: KeyRecord) {
  return {
    id: record.id,
    object: 'api_key',
    name: record.label,
    key_preview: keyPreview(record.key),
    created_at: iso(record.createdAt),
    expires_at: iso(record.expiresAt ?? record.grant?.expiresAt),
    disabled: record.disabled,
    daily_usd_limit: record.dailyUsdLimit ?? null,
    daily_request_limit: record.dailyRequestLimit ?? null,
    oauth_app: record.grant?.clientName ?? null,
    usage: {
      requests_today: record.requestsToday,
      spent_today_usd: roundUsd(fromNanos(record.spentTodayNanos)),
      spent_total_usd: roundUsd(fromNanos(record.spentTotalNanos)),
    },
  };
}
