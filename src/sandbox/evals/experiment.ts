import type { Owned, ScorerVersion } from './store.js';

/** An experiment and what its run has produced so far (spec 2 §2.7, §3). */

export type ExperimentStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export interface Candidate {
  id: string;
  name: string;
  model: string;
  system: string | null;
  /** Template with `{{input}}`; `{{input}}` alone when the request gave none. */
  prompt: string;
}

export interface ExperimentItem {
  id: string;
  datasetItemId: string | null;
  input: unknown;
  expected_output: unknown;
  context: unknown;
  metadata: Record<string, unknown>;
  /** Inline rows may carry a system prompt; a candidate's own `system` wins. */
  system?: string;
}

export interface ErrorInfo {
  code: string;
  message: string;
}

/** One candidate's answer to one item. */
export interface TraceResult {
  id: string;
  status: 'completed' | 'failed';
  /** The user message sent (the candidate's prompt with the input filled in). */
  prompt: string;
  output: string | null;
  model: string;
  provider: string;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  latencyMs: number;
  error: ErrorInfo | null;
  startedAt: number;
  completedAt: number;
}

export interface ScoreResult {
  status: 'completed' | 'failed';
  score: number | null;
  passed: boolean | null;
  reasoning: string | null;
  error: ErrorInfo | null;
}

export interface Settings {
  store_content: boolean;
  redaction: boolean | string;
}

export interface Experiment extends Owned {
  projectId: string;
  name: string;
  description: string | null;
  datasetVersionId: string | null;
  candidates: Candidate[];
  /** Snapshots of the scorer versions in use when the experiment was made. */
  scorers: ScorerVersion[];
  settings: Settings;
  items: ExperimentItem[];
  createdAt: number;
  /** Timing copied from the sandbox options at creation. */
  queueMs: number;
  stepMs: number;
  status: ExperimentStatus;
  /** Work units done, in timeline order (see timeline.ts). */
  stepsDone: number;
  /** By `item * candidates + candidate`. */
  traces: (TraceResult | undefined)[];
  /** By `(item * candidates + candidate) * scorers + scorer`. */
  scores: (ScoreResult | undefined)[];
  error: ErrorInfo | null;
  startedAt?: number;
  completedAt?: number;
  cancelledAt?: number;
}

export const TERMINAL: readonly ExperimentStatus[] = ['completed', 'failed', 'cancelled'];

export const traceIndex = (exp: Experiment, item: number, candidate: number): number =>
  item * exp.candidates.length + candidate;

export const scoreIndex = (exp: Experiment, item: number, candidate: number, scorer: number): number =>
  traceIndex(exp, item, candidate) * exp.scorers.length + scorer;

/** Redaction on: `true`, or any value but `none`/`off`. */
export const redacting = (settings: Settings): boolean =>
  settings.redaction === true ||
  (typeof settings.redaction === 'string' && !['none', 'off', ''].includes(settings.redaction));

/** Why content asked for is not stored (spec 2 §2.7), or undefined when stored or never asked for. */
export function suppressedReason(settings: Settings, trace: TraceResult | undefined): string | undefined {
  if (!settings.store_content) return undefined;
  if (redacting(settings)) return 'pii_redaction_enabled';
  if (trace && trace.output === null) return 'output_content_unavailable';
  return undefined;
}
