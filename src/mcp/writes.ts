import {
  AbortedError,
  ConnectionError,
  InternalError,
  isOrbitError,
  JobFailedError,
  type OrbitError,
  type OrbitErrorOptions,
  OutputInvalidError,
  UpstreamInvalidError,
} from '../errors.js';
import { isRecord } from '../lang.js';
import type { Redactor } from '../secrets.js';
import type { Api } from '../upstream/client.js';
import { mayHaveCharged, mayHaveReached } from '../upstream/failure.js';
import type { AnyTool } from './define-tool.js';
import { checkLine, type ToolResult } from './render.js';

/**
 * A call that writes, spends or deletes is never reported as failed once the platform accepted it
 * (issue 32): every request such a call sends other than a GET is recorded with what became of it,
 * and when the call fails the record decides the answer.
 * - The platform accepted a write (2xx) and something could not be read afterwards (its reply, a
 *   later status, our own result): the call answers as done, saying what was sent, the status, the
 *   request id, what could be read, and which read shows what it did.
 * - A write may have run (a timeout, a dropped reply, a 5xx) or one ran before a later step failed:
 *   the error stands, and its fix says how to check, never to call again.
 */
export interface SentWrite {
  method: string;
  path: string;
  /** Sent with an Idempotency-Key: sent again, the platform replays it instead of running it twice. */
  keyed: boolean;
  /** The reply's status once one came: 2xx means the platform accepted the write. */
  status?: number;
  requestId?: string;
}

/** The call's `api`, recording each request that is not a GET, in the order sent. */
export function recordingWrites(api: Api): { api: Api; writes: SentWrite[] } {
  const writes: SentWrite[] = [];
  const track = async <T extends { status: number; requestId?: string }>(
    spec: { method: string; path: string; idempotencyKey?: string },
    send: () => Promise<T>,
  ): Promise<T> => {
    if (spec.method === 'GET') return send();
    const write: SentWrite = {
      method: spec.method,
      path: spec.path,
      keyed: spec.idempotencyKey !== undefined,
    };
    writes.push(write);
    try {
      const reply = await send();
      write.status = reply.status;
      write.requestId = reply.requestId;
      return reply;
    } catch (error) {
      // A 2xx whose body could not be read: the platform accepted it all the same.
      if (error instanceof UpstreamInvalidError && error.reply) {
        write.status = error.reply.status;
        write.requestId = error.requestId;
      }
      throw error;
    }
  };
  return {
    writes,
    api: {
      baseUrl: api.baseUrl,
      request: (spec) => track(spec, () => api.request(spec)),
      stream: (spec) => track(spec, () => api.stream(spec)),
      bytes: (spec) => track(spec, () => api.bytes(spec)),
    },
  };
}

export const acceptedWrite = (write: SentWrite) => write.status !== undefined && write.status < 300;
/** The last write the platform accepted. */
const lastAccepted = (writes: readonly SentWrite[]) => [...writes].reverse().find(acceptedWrite);

/**
 * A failure that leaves unknown whether the platform ran the request: what the budget counts as
 * perhaps charged (a timeout, a reply lost once sent, a stream cut), or a call the caller cancelled.
 * An error status the platform answered with (a 5xx too) says it did not.
 */
function mayHaveRun(error: unknown): boolean {
  if (error instanceof ConnectionError) return mayHaveReached(error);
  return mayHaveCharged(error) || error instanceof AbortedError;
}

/** What the call knew when it failed, for the answer. */
export interface WriteFailure {
  tool: AnyTool;
  args: Record<string, unknown>;
  writes: readonly SentWrite[];
  error: unknown;
  /** What a paid call counted as spent (its reservation), when its cost could not be read. */
  countedUsd?: number;
}

/**
 * The answer for a write the platform accepted when what followed could not be read; undefined
 * when the failure is of another kind (then `withCheck` gives the error its fix).
 */
export function acceptedAnswer(failure: WriteFailure, redactor: Redactor): ToolResult | undefined {
  const { tool, args, writes, error } = failure;
  const write = lastAccepted(writes);
  // Unreadable: the platform's reply, or our own result (a bug of ours, after the write all the same).
  if (!write || !(error instanceof UpstreamInvalidError || error instanceof OutputInvalidError))
    return undefined;
  const problem = error.message;
  const check = tool.check?.(args as never);
  const read = error instanceof UpstreamInvalidError && error.reply ? shown(error.reply.body) : undefined;
  const requestId = write.requestId ?? error.requestId;
  const answer = {
    accepted: {
      status: write.status!,
      ...(requestId ? { request_id: requestId } : {}),
      sent: { method: write.method, path: write.path, arguments: shown(args) },
      ...(read !== undefined ? { read } : {}),
      unreadable: problem,
      ...(failure.countedUsd !== undefined
        ? { cost: `not stated; ${failure.countedUsd} USD counted as spent` }
        : {}),
      ...(check ? { check } : {}),
    },
  };
  const lines = [
    `Done: the platform accepted ${write.method} ${write.path} (HTTP ${write.status}${requestId ? `, request id ${requestId}` : ''}), but what came back could not be read in full: ${problem}`,
    `Sent: ${JSON.stringify(answer.accepted.sent.arguments)}`,
    ...(read !== undefined ? [`Read: ${JSON.stringify(read)}`] : []),
    ...(answer.accepted.cost ? [`Cost ${answer.accepted.cost}.`] : []),
    checkLine(tool.name, check, 'It ran'),
  ];
  return {
    content: [{ type: 'text', text: redactor.text(lines.join('\n')) }],
    structuredContent: redactor.value(answer),
  };
}

/**
 * The error of a call that sent a write: when the write may have run, or one ran before a later
 * step failed, the fix says how to check (and `next` names the read), never to call again. Kept
 * as it was: an error with nothing written before it, one that already names its next call (the
 * tool knew how to go on), a failed job (the platform said so), and one after writes sent with an
 * Idempotency-Key (calling again replays them, it does not run them twice).
 */
export function withCheck(failure: WriteFailure): unknown {
  const { tool, args, writes, error } = failure;
  if (error instanceof JobFailedError || (isOrbitError(error) && error.next)) return error;
  const ran = lastAccepted(writes);
  const unknown = !ran && writes.length > 0 && mayHaveRun(error);
  if ((!ran && !unknown) || writes.every((write) => write.keyed)) return error;
  // Anything else (a bug of ours after the write) is said as the internal error it is.
  const e = isOrbitError(error)
    ? error
    : new InternalError(error instanceof Error ? error.message : String(error), { cause: error });
  const check = tool.check?.(args as never);
  const write = ran ?? writes[writes.length - 1]!;
  const said = ran
    ? `The platform accepted ${write.method} ${write.path} (HTTP ${write.status}${write.requestId ? `, request id ${write.requestId}` : ''}) before this failed`
    : `${write.method} ${write.path} may have run on the platform`;
  const fix = checkLine(tool.name, check, said);
  // A class keeps its code; the fix (and `next`, when the error had none) is what changes.
  const Kind = e.constructor as new (message: string, options: OrbitErrorOptions) => OrbitError;
  return new Kind(e.message, {
    status: e.status,
    requestId: e.requestId ?? write.requestId,
    upstreamCode: e.upstreamCode,
    upstreamType: e.upstreamType,
    param: e.param,
    fix,
    retryAfterMs: e.retryAfterMs,
    details: e.details,
    next: e.next ?? check,
    cause: e,
  });
}

/** A value as the answer shows it: long strings, long lists and deep nesting cut; secret-named fields hidden. */
function shown(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (Array.isArray(value)) {
    if (depth >= 4) return `[${value.length} items]`;
    const head = value.slice(0, 5).map((item) => shown(item, depth + 1));
    return value.length > 5 ? [...head, `… ${value.length - 5} more`] : head;
  }
  if (!isRecord(value)) return value;
  if (depth >= 4) return '{…}';
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      secretNamed(key) ? '[not shown]' : shown(item, depth + 1),
    ]),
  );
}

/** Last words of field names that carry a credential (an API key's secret, a token, a preimage). */
const SECRET_WORDS = ['key', 'secret', 'token', 'password', 'cookie', 'session', 'preimage', 'authorization'];

/** `apiKey`, `api_key`, `x_payment`, `sessionToken`: a name whose last word is a credential's. */
function secretNamed(key: string): boolean {
  const name = key.toLowerCase();
  if (name === 'x_payment' || name.endsWith('_x_payment')) return true;
  return SECRET_WORDS.some(
    (word) => name === word || name.endsWith(`_${word}`) || key.endsWith(capital(word)),
  );
}

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);
