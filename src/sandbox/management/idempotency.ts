import type { Context } from 'hono';
import { badRequest, SandboxError } from '../errors.js';
import type { SandboxState } from '../state.js';
import type { SandboxEnv } from '../types.js';
import { isRecord, sha256Hex } from '../util.js';

/**
 * `Idempotency-Key` for key creation (spec 1 §4.3): a retried request with the same key and the
 * same body replays the first reply exactly (secret included); the same key with another body is
 * refused. Keys are remembered per owner for a day.
 */

const TTL_MS = 86_400_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface StoredReply {
  fingerprint: string;
  status: number;
  body: unknown;
  at: number;
}

const store = (state: SandboxState) => state.collection<StoredReply>('management.idempotency');

export function idempotencyKey(c: Context<SandboxEnv>): string {
  const key = c.req.header('idempotency-key');
  if (key === undefined || key === '') {
    throw badRequest(
      'Creating an API key requires an `Idempotency-Key` header (a unique value per intended key, reused on retries).',
      'missing_required_parameter',
      'Idempotency-Key',
    );
  }
  if (!KEY_PATTERN.test(key)) {
    throw badRequest(
      '`Idempotency-Key` must be 1..255 visible ASCII characters.',
      'invalid_parameter_value',
      'Idempotency-Key',
    );
  }
  return key;
}

/** The same JSON with its object keys sorted, so key order does not make two bodies differ. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical(value[k])]),
  );
}

export const fingerprint = (body: unknown): string => sha256Hex(JSON.stringify(canonical(body)) ?? '');

/** The stored reply to replay, undefined for a new key; a reused key with another body is a 409. */
export function storedReply(
  state: SandboxState,
  scope: string,
  key: string,
  print: string,
): StoredReply | undefined {
  const entry = store(state).get(`${scope}\n${key}`);
  if (!entry || entry.at + TTL_MS <= state.now()) return undefined;
  if (entry.fingerprint !== print) {
    throw new SandboxError(
      409,
      'This Idempotency-Key was already used with a different request body; use a new key for a different API key.',
      { code: 'idempotency_key_reused', param: 'Idempotency-Key' },
    );
  }
  return entry;
}

export function rememberReply(
  state: SandboxState,
  scope: string,
  key: string,
  reply: Omit<StoredReply, 'at'>,
): void {
  const entries = store(state);
  // Keys older than a day can never replay again; drop them so a long-running sandbox stays small.
  for (const [id, entry] of entries) if (entry.at + TTL_MS <= state.now()) entries.delete(id);
  entries.set(`${scope}\n${key}`, { ...reply, at: state.now() });
}
