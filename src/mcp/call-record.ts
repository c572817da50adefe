/**
 * What one tool call was, for the audit log of the HTTP endpoint and the attributes of the call's
 * span: the tool and operation, how it ended, what it reserved and settled, the platform's request
 * ids, how long it took. Built from names this server owns, numbers and the platform's ids only:
 * never an argument, a prompt, a result or a file's content.
 */
import type { Reservation } from '../budget/ledger.js';
import { isOrbitError } from '../errors.js';
import type { AnyTool } from './define-tool.js';

/** `refused`: stopped by a limit before anything was sent (the spend budget, the paid-call rate). */
export type CallOutcome = 'ok' | 'error' | 'refused' | 'asked';

export interface CallRecord {
  tool: string;
  /** The operation of a read/write pair tool (`api_keys_write` `create`). */
  operation?: string;
  outcome: CallOutcome;
  /** The error's code (`src/errors.ts`), or `unknown_tool`. */
  error_code?: string;
  /** What the call cost by its result (absent when the result says nothing or could not be read). */
  cost_usd?: number;
  /** What was held against the budget before the call was sent: its price, or the tool's ceiling. */
  reserved_usd?: number;
  /** What the budget counted as spent when the call ended. */
  settled_usd?: number;
  /** What stays reserved for a job whose cost comes later. */
  deferred_usd?: number;
  /** The platform's request ids, one per reply (retries included). */
  request_ids: string[];
  duration_ms: number;
}

/** Stamped on a remote caller's records: whose call (12 hex digits of the key's fingerprint) and where. */
export interface CallStamp {
  tenant: string;
  replica: string;
}

export type StampedCall = CallRecord & Partial<CallStamp>;

const REFUSALS = new Set(['budget_exceeded', 'rate_exceeded']);
const NANO = 1e9;
const usd = (value: number) => Math.round(value * NANO) / NANO;

/** Follows one tool call from its arguments to its result; `record()` once it has ended. */
export class CallMeter {
  private readonly started = performance.now();
  private readonly requestIds: string[] = [];
  private operation?: string;
  private outcome: CallOutcome = 'ok';
  private errorCode?: string;
  private cost?: number;
  private reserved?: number;
  private settled?: number;
  private deferred?: number;

  constructor(private readonly tool: string) {}

  /** For the call's platform client: each reply's request id. */
  readonly onRequestId = (requestId: string): void => {
    if (this.requestIds.length < 32) this.requestIds.push(requestId);
  };

  /** The operation, once the arguments parsed (a name from the tool's own enum). */
  operationOf(tool: AnyTool, args: unknown): void {
    const name = (args as { operation?: unknown } | undefined)?.operation;
    if (tool.paired && typeof name === 'string' && tool.operations[name]) this.operation = name;
  }

  /**
   * The call's reservation as the budget sees it: what it held, then what settle, defer or
   * release counted. Whatever computes those amounts, this reads what reached the ledger.
   */
  watch(reservation: Reservation, reservedUsd: number): Reservation {
    this.reserved = usd(reservedUsd);
    return {
      id: reservation.id,
      settle: (spent) => {
        this.settled = usd(spent ?? 0);
        return reservation.settle(spent);
      },
      defer: (jobId, keptUsd, spentNowUsd) => {
        this.settled = usd(spentNowUsd ?? 0);
        this.deferred = usd(keptUsd);
        return reservation.defer(jobId, keptUsd, spentNowUsd);
      },
      release: () => {
        this.settled = 0;
        return reservation.release();
      },
    };
  }

  /** The result's own statement of its cost. */
  succeeded(costUsd: number | undefined): void {
    if (costUsd !== undefined && Number.isFinite(costUsd)) this.cost = usd(costUsd);
  }

  failed(error: unknown): void {
    this.errorCode = isOrbitError(error) ? error.code : 'internal_error';
    this.outcome = REFUSALS.has(this.errorCode) ? 'refused' : 'error';
    const requestId = isOrbitError(error) ? error.requestId : undefined;
    if (requestId && !this.requestIds.includes(requestId)) this.onRequestId(requestId);
  }

  /** The call asked the person something (input_required): it comes back as a new call. */
  asked(): void {
    this.outcome = 'asked';
  }

  record(): CallRecord {
    return {
      tool: this.tool,
      ...(this.operation !== undefined ? { operation: this.operation } : {}),
      outcome: this.outcome,
      ...(this.errorCode !== undefined ? { error_code: this.errorCode } : {}),
      ...(this.cost !== undefined ? { cost_usd: this.cost } : {}),
      ...(this.reserved !== undefined ? { reserved_usd: this.reserved } : {}),
      ...(this.settled !== undefined ? { settled_usd: this.settled } : {}),
      ...(this.deferred !== undefined ? { deferred_usd: this.deferred } : {}),
      request_ids: this.requestIds,
      duration_ms: Math.round((performance.now() - this.started) * 10) / 10,
    };
  }
}

/** A call of a tool this server does not have: the name a client made up is not kept. */
export function unknownToolCall(): CallRecord {
  return { tool: 'unknown', outcome: 'error', error_code: 'unknown_tool', request_ids: [], duration_ms: 0 };
}

/** The same fields as span attributes, each under `orbit.` (`orbit.outcome`, `orbit.settled_usd`). */
export function callAttributes(record: StampedCall): Record<string, string | number | string[]> {
  const attributes: Record<string, string | number | string[]> = {};
  for (const [field, value] of Object.entries(record)) {
    if (value !== undefined) attributes[`orbit.${field}`] = value;
  }
  return attributes;
}
