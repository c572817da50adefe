import type { z } from 'zod';
import type { CredentialKind } from '../credentials.js';

/**
 * One free route `orbit-mcp doctor` reads (issue 25): never a paid one. The schema is the one the
 * tool that reads this route uses, so a drift doctor names is a drift a tool would meet.
 */
export interface FreeRoute {
  /** A short name: `models (text)`, `x402 endpoints`. */
  name: string;
  path: string;
  query?: Record<string, string>;
  /** The credential it needs; without it the check is skipped, not failed. */
  credential: CredentialKind | 'optional';
  schema: z.ZodType;
  /**
   * A further check of the parsed reply, for the shape a tool reads beyond the schema (elements of
   * a list read one by one): the drifts found, empty when none.
   */
  inspect?: (data: unknown) => Drift[];
  /** Routes learned from this reply, checked next (a model's details, an enclave's attestation). */
  follow?: (data: unknown) => FreeRoute[];
}

export interface Drift {
  field: string;
  expected: string;
  got: string;
  /**
   * The tools read on without it (a value a schema's `.catch` dropped, a list element left out):
   * the call still answers, but this value is lost. Absent when the reply fails the tools' schema.
   */
  tolerated?: true;
}

export type Outcome =
  | { route: string; path: string; status: 'ok' }
  | { route: string; path: string; status: 'drift'; drift: Drift[] }
  | { route: string; path: string; status: 'unreachable'; reason: string }
  | {
      route: string;
      path: string;
      status: 'skipped';
      reason: string;
      /** The credential it wanted and did not have; absent when it was not requested for another reason. */
      credential?: CredentialKind;
    };
