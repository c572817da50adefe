/**
 * The bounds on 2025 sessions (per key, per address, unconfirmed keys, in total) and the refusal
 * past one: counted by this replica's registry (sessions/) and, with a shared store, by every
 * replica's directory (cluster/). Kept here, below both rooms, so neither imports the other for it.
 */

/** Every bound on sessions, enforced before a session is created. */
export interface SessionLimits {
  perKey: number;
  perAddress: number;
  total: number;
  /** Sessions whose key could not be checked with the platform (it was unreachable), all keys together. */
  unchecked: number;
  /** A session with no request and no open stream for this long is closed. */
  idleMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  perKey: 100,
  perAddress: 256,
  total: 2_000,
  unchecked: 64,
  idleMs: 30 * 60_000,
};

/** A session refused under a bound: the HTTP status and what the client is told. */
export interface SessionRefusal {
  ok: false;
  status: number;
  message: string;
}
