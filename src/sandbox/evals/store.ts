import type { SandboxState } from '../state.js';
import { pad } from '../util.js';

/**
 * Evaluation records (spec 2 §2.7) and where they live. Every record belongs to the API key that
 * made it (`owner`), and the tables are keyed by owner and id, so one key can neither read another
 * key's objects nor learn that an id is taken by someone else.
 */

export interface Owned {
  id: string;
  owner: string;
}

export interface Project extends Owned {
  name: string;
  description: string | null;
  settings: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  /** The workbench project experiments without a `project_id` go to. */
  isDefault: boolean;
}

/** A dataset row as sent (spec 2 §2.7: `input` required, the rest optional). */
interface Row {
  input: unknown;
  output?: unknown;
  system?: string;
  expected_output?: unknown;
  context?: unknown;
  metadata?: Record<string, unknown>;
}

export interface DatasetItem extends Row {
  id: string;
}

export interface Dataset extends Owned {
  name: string;
  description: string | null;
  items: DatasetItem[];
  createdAt: number;
  updatedAt: number;
  /** Versions frozen so far; the next one gets `versionCount + 1`. */
  versionCount: number;
  /** Deleted datasets are hidden, but their versions keep their snapshots. */
  deletedAt?: number;
}

interface VersionItem {
  id: string;
  datasetItemId: string;
  input: unknown;
  expected_output: unknown;
  context: unknown;
  metadata: Record<string, unknown>;
}

export interface DatasetVersion extends Owned {
  datasetId: string;
  version: number;
  items: VersionItem[];
  source: string;
  createdAt: number;
}

export const SCORER_TYPES = [
  'exact_match',
  'contains',
  'regex',
  'json_schema',
  'threshold',
  'llm_judge',
  'pairwise_llm',
] as const;
export type ScorerType = (typeof SCORER_TYPES)[number];

/** One immutable version of a scorer; experiments keep a copy of the version they used. */
export interface ScorerVersion {
  id: string;
  versionId: string;
  version: number;
  name: string;
  description: string | null;
  scorerType: ScorerType;
  config: Record<string, unknown>;
  prompt: string | null;
  judgeModel: string | null;
  createdAt: number;
  builtin: boolean;
}

export interface Scorer extends Owned {
  versions: ScorerVersion[];
}

/** A table of one kind of record, scoped by owner. */
export class OwnedTable<T extends Owned> {
  constructor(private readonly rows: Map<string, T>) {}

  get(owner: string, id: string): T | undefined {
    return this.rows.get(slot(owner, id));
  }

  put(record: T): T {
    this.rows.set(slot(record.owner, record.id), record);
    return record;
  }

  delete(owner: string, id: string): boolean {
    return this.rows.delete(slot(owner, id));
  }

  /** The owner's records, oldest first. */
  list(owner: string): T[] {
    return [...this.rows.values()].filter((row) => row.owner === owner);
  }
}

const slot = (owner: string, id: string): string => `${owner}\u0000${id}`;

export function table<T extends Owned>(state: SandboxState, name: string): OwnedTable<T> {
  return new OwnedTable(state.collection<T>(`evals.${name}`));
}

/** The next number for an id prefix; one counter per prefix, so ids are stable run to run. */
export function nextNumber(state: SandboxState, prefix: string): number {
  const counters = state.collection<number>('evals.counters');
  const n = (counters.get(prefix) ?? 0) + 1;
  counters.set(prefix, n);
  return n;
}

export const newId = (state: SandboxState, prefix: string): string =>
  `${prefix}${pad(nextNumber(state, prefix))}`;

/** Timestamps are ISO 8601 strings (spec 2 §2.7). */
export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | undefined): string | null => (ms === undefined ? null : iso(ms));
