import { SandboxError } from '../errors.js';
import { BATCH_STATUSES, type Batch, type BatchStatus } from './store.js';

/**
 * The batch list's query (spec 1 §4.1), checked the way the platform does: every fault is a 400 in
 * the batch envelope, before anything is read.
 */

export interface BatchQuery {
  limit: number;
  cursor: { direction: 'after' | 'before'; id: string } | undefined;
  statuses: Set<BatchStatus> | undefined;
  /** Epoch ms, exclusive bounds. */
  createdAfter: number | undefined;
  createdBefore: number | undefined;
}

const invalid = (message: string) => new SandboxError(400, message);

const UNIX_SECONDS = /^-?\d{1,15}$/;
/** Timezone required; at most millisecond precision; `T`, `t` or a space between date and time. */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/** Unix seconds, or an ISO 8601 / RFC 3339 instant with a timezone; epoch ms. */
function parseInstant(name: string, text: string): number {
  if (UNIX_SECONDS.test(text)) return Number(text) * 1000;
  const m = TIMESTAMP.exec(text);
  if (!m) {
    throw invalid(
      `${name} must be Unix seconds or an ISO 8601 / RFC 3339 timestamp with a timezone and at most millisecond precision; got "${text}".`,
    );
  }
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m;
  const fields = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = fields;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Number((frac ?? '0').padEnd(3, '0')));
  const check = new Date(utc);
  const real =
    check.getUTCMonth() === month - 1 &&
    check.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  const offsetMinutes = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om ?? '0')) : 0;
  if (!real || Math.abs(offsetMinutes) >= 24 * 60)
    throw invalid(`${name} is not a real date and time: "${text}".`);
  return utc - offsetMinutes * 60_000;
}

function parseLimit(text: string | undefined): number {
  if (text === undefined) return 20;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 100) {
    throw invalid(`limit must be an integer from 1 to 100; got "${text}".`);
  }
  return Number(text);
}

function parseStatuses(values: string[]): Set<BatchStatus> | undefined {
  if (values.length === 0) return undefined;
  const statuses = new Set<BatchStatus>();
  for (const value of values.flatMap((v) => v.split(','))) {
    const status = BATCH_STATUSES.find((s) => s === value.trim());
    if (!status) throw invalid(`status "${value}" is not a batch status (${BATCH_STATUSES.join(', ')}).`);
    statuses.add(status);
  }
  return statuses;
}

export function parseBatchQuery(query: URLSearchParams): BatchQuery {
  const after = query.get('after');
  const before = query.get('before');
  if (after !== null && before !== null)
    throw invalid('after and before cannot be combined; page one way at a time.');
  if (after === '' || before === '') throw invalid('after / before must be a batch id.');
  const cursor =
    after !== null
      ? ({ direction: 'after', id: after } as const)
      : before !== null
        ? ({ direction: 'before', id: before } as const)
        : undefined;
  const createdAfterText = query.get('created_after');
  const createdBeforeText = query.get('created_before');
  const createdAfter =
    createdAfterText === null ? undefined : parseInstant('created_after', createdAfterText);
  const createdBefore =
    createdBeforeText === null ? undefined : parseInstant('created_before', createdBeforeText);
  if (createdAfter !== undefined && createdBefore !== undefined && createdAfter >= createdBefore) {
    throw invalid('created_after must be earlier than created_before: the range is empty.');
  }
  return {
    limit: parseLimit(query.get('limit') ?? undefined),
    cursor,
    statuses: parseStatuses(query.getAll('status')),
    createdAfter,
    createdBefore,
  };
}

/** Does a batch pass the status and time filters? Bounds are strict. */
export function matches(query: BatchQuery, batch: Batch): boolean {
  const at = batch.created_at * 1000;
  return (
    (!query.statuses || query.statuses.has(batch.status)) &&
    (query.createdAfter === undefined || at > query.createdAfter) &&
    (query.createdBefore === undefined || at < query.createdBefore)
  );
}
