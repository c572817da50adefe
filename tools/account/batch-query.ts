import { z } from 'zod';
import { InputError } from '../../src/errors.js';

/**
 * The query of the batch list (spec 1 §4.1), checked before sending: timestamps in every form the
 * spec allows, `after` / `before` never both, a non-empty range, and cursors that carry the
 * filters and page size, since §4.1 wants the same filters on every page of a walk.
 */

const BATCH_STATUSES = [
  'validating',
  'in_progress',
  'finalizing',
  'completed',
  'failed',
  'expired',
  'cancelling',
  'cancelled',
] as const;
export const Status = z.enum(BATCH_STATUSES);

/** Unix seconds, or an ISO 8601 / RFC 3339 instant with a timezone and at most millisecond precision. */
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/** Epoch ms of a §4.1 timestamp, or an InputError naming the argument. */
function parseInstant(name: string, value: number | string): number {
  const text = String(value).trim();
  if (/^-?\d{1,12}$/.test(text)) return Number(text) * 1000;
  const m = INSTANT.exec(text);
  if (m) {
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const utc = Date.UTC(year, month - 1, day, hour, minute, second, Number((m[7] ?? '0').padEnd(3, '0')));
    const offset = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11] ?? 0)) : 0;
    const check = new Date(utc);
    const real =
      check.getUTCMonth() === month - 1 &&
      check.getUTCDate() === day &&
      hour < 24 &&
      minute < 60 &&
      second < 60 &&
      Math.abs(offset) < 24 * 60;
    if (real) return utc - offset * 60_000;
  }
  throw new InputError(`\`${name}\` is not a valid timestamp: "${text}".`, {
    param: name,
    fix: 'Give Unix seconds (1735689600) or an ISO 8601 / RFC 3339 time with a timezone and at most milliseconds (2025-01-01T00:00:00Z, 2025-01-01T01:00:00.123+01:00).',
  });
}

export const Filters = z.object({
  status: z.array(Status).optional(),
  created_after: z.union([z.number(), z.string()]).optional(),
  created_before: z.union([z.number(), z.string()]).optional(),
});
type Filters = z.infer<typeof Filters>;
const FILTER_NAMES = ['status', 'created_after', 'created_before'] as const;

export interface Position {
  /** `after`: the next older page; `before`: the adjacent newer page. */
  direction: 'after' | 'before';
  id: string;
}

/** A page position with the filters and page size it was found with, as one opaque string. */
const Cursor = Filters.extend({
  d: z.enum(['after', 'before']),
  id: z.string().min(1),
  limit: z.number().int().min(1).max(100).optional(),
});

export const encodeCursor = (position: Position, filters: Filters, limit: number | undefined) =>
  Buffer.from(JSON.stringify({ d: position.direction, id: position.id, ...filters, limit })).toString(
    'base64url',
  );

function decodeCursor(text: string): { position: Position; filters: Filters; limit?: number } {
  let parsed: z.ZodSafeParseResult<z.infer<typeof Cursor>> | undefined;
  try {
    parsed = Cursor.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {}
  if (!parsed?.success) {
    throw new InputError('`cursor` is not a cursor from batches_list.', {
      param: 'cursor',
      fix: 'Pass older_cursor or newer_cursor exactly as a previous batches_list result gave it, or leave it out to start at the newest batch.',
    });
  }
  const { d, id, limit, ...filters } = parsed.data;
  return { position: { direction: d, id }, filters, limit };
}

export interface ListArgs extends Filters {
  limit?: number;
  after?: string;
  before?: string;
  cursor?: string;
}

/** Where to read from and with which filters, every rule of §4.1 checked. */
export function resolveQuery(args: ListArgs): { position?: Position; filters: Filters; limit?: number } {
  if (args.after !== undefined && args.before !== undefined) {
    throw new InputError('`after` and `before` cannot be combined.', {
      param: 'before',
      fix: 'Page one way at a time: `after` for older batches, `before` for newer ones.',
    });
  }
  const given: Filters = Object.fromEntries(
    // An empty status list filters nothing, as if left out.
    FILTER_NAMES.filter((name) => {
      const value = args[name];
      return value !== undefined && !(Array.isArray(value) && value.length === 0);
    }).map((name) => [name, args[name]]),
  );
  let position: Position | undefined =
    args.after !== undefined
      ? { direction: 'after', id: args.after }
      : args.before !== undefined
        ? { direction: 'before', id: args.before }
        : undefined;
  let filters = given;
  let limit = args.limit;
  if (args.cursor !== undefined) {
    if (position) {
      throw new InputError(
        '`cursor` already says where to read; it cannot be combined with `after` or `before`.',
        {
          param: 'cursor',
          fix: 'Pass the cursor alone.',
        },
      );
    }
    const decoded = decodeCursor(args.cursor);
    for (const name of FILTER_NAMES) {
      if (
        given[name] !== undefined &&
        JSON.stringify(given[name]) !== JSON.stringify(decoded.filters[name])
      ) {
        throw new InputError(`\`${name}\` differs from the filters this cursor was made with.`, {
          param: name,
          fix: 'Leave the filters out when passing a cursor (it carries them), or start a new listing without a cursor.',
        });
      }
    }
    position = decoded.position;
    filters = decoded.filters;
    // The page size carries on too, unless the caller names another one.
    limit ??= decoded.limit;
  }
  const after =
    filters.created_after === undefined ? undefined : parseInstant('created_after', filters.created_after);
  const before =
    filters.created_before === undefined ? undefined : parseInstant('created_before', filters.created_before);
  if (after !== undefined && before !== undefined && after >= before) {
    throw new InputError('`created_after` must be earlier than `created_before`: the range is empty.', {
      param: 'created_after',
      fix: 'Swap or widen the two bounds (both are exclusive).',
    });
  }
  return { position, filters, limit };
}
