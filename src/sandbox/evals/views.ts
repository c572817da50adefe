import { roundUsd } from '../util.js';
import {
  type Experiment,
  redacting,
  type ScoreResult,
  scoreIndex,
  suppressedReason,
  type TraceResult,
  traceIndex,
} from './experiment.js';
import type { Dataset, DatasetItem, DatasetVersion, Project, ScorerVersion } from './store.js';
import { iso, isoOrNull } from './store.js';

/** The JSON objects of spec 2 §2.7, as replies show them. */

/** Experiments and traces are kept 30 days. */
const RETENTION_MS = 30 * 86_400_000;

export const list = (data: unknown[]) => ({ object: 'list', data });

export const projectView = (p: Project) => ({
  id: p.id,
  object: 'eval.project',
  name: p.name,
  description: p.description,
  settings: p.settings,
  created_at: iso(p.createdAt),
  updated_at: iso(p.updatedAt),
});

const itemView = (item: DatasetItem) => ({
  id: item.id,
  input: item.input,
  output: item.output ?? null,
  system: item.system ?? null,
  expected_output: item.expected_output ?? null,
  context: item.context ?? null,
  metadata: item.metadata ?? {},
});

export const datasetView = (d: Dataset, withItems: boolean) => ({
  id: d.id,
  object: 'eval.dataset',
  name: d.name,
  description: d.description,
  item_count: d.items.length,
  latest_version: d.versionCount === 0 ? null : d.versionCount,
  created_at: iso(d.createdAt),
  updated_at: iso(d.updatedAt),
  ...(withItems ? { items: d.items.map(itemView) } : {}),
});

/** Scalar metadata as strings, the form versions index rows by. */
function metadataIndex(metadata: Record<string, unknown>): Record<string, string> {
  const index: Record<string, string> = {};
  for (const [name, value] of Object.entries(metadata)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) index[name] = String(value);
  }
  return index;
}

export const versionView = (v: DatasetVersion) => ({
  id: v.id,
  object: 'eval.dataset_version',
  dataset_id: v.datasetId,
  version: v.version,
  item_count: v.items.length,
  items: v.items.map((item) => ({
    id: item.id,
    dataset_item_id: item.datasetItemId,
    input: item.input,
    expected_output: item.expected_output,
    context: item.context,
    metadata: item.metadata,
    metadata_index: metadataIndex(item.metadata),
  })),
  source: v.source,
  created_at: iso(v.createdAt),
});

export const scorerView = (s: ScorerVersion) => ({
  id: s.id,
  object: 'eval.scorer',
  version_id: s.versionId,
  version: s.version,
  name: s.name,
  description: s.description,
  scorer_type: s.scorerType,
  config: s.config,
  prompt: s.prompt,
  judge_model: s.judgeModel,
  builtin: s.builtin,
  created_at: iso(s.createdAt),
});

function progress(exp: Experiment) {
  const traces = exp.traces.filter((t): t is TraceResult => t !== undefined);
  const scores = exp.scores.filter((s): s is ScoreResult => s !== undefined);
  return {
    total_items: exp.items.length,
    total_traces: exp.items.length * exp.candidates.length,
    completed_traces: traces.filter((t) => t.status === 'completed').length,
    failed_traces: traces.filter((t) => t.status === 'failed').length,
    total_scores: exp.items.length * exp.candidates.length * exp.scorers.length,
    completed_scores: scores.filter((s) => s.status === 'completed').length,
    failed_scores: scores.filter((s) => s.status === 'failed').length,
  };
}

export const experimentView = (exp: Experiment) => ({
  id: exp.id,
  object: 'eval.experiment',
  project_id: exp.projectId,
  name: exp.name,
  description: exp.description,
  dataset_version_id: exp.datasetVersionId,
  status: exp.status,
  progress: progress(exp),
  candidates: exp.candidates,
  scorers: exp.scorers.map(scorerView),
  settings: exp.settings,
  error: exp.error,
  created_at: iso(exp.createdAt),
  started_at: isoOrNull(exp.startedAt),
  completed_at: isoOrNull(exp.completedAt),
  cancelled_at: isoOrNull(exp.cancelledAt),
  expires_at: iso(exp.createdAt + RETENTION_MS),
});

/** The trace of one candidate answer (spec 2 §2.7); content only when stored and not suppressed. */
function traceView(exp: Experiment, item: number, trace: TraceResult) {
  const stored = exp.settings.store_content && !redacting(exp.settings);
  const reason = suppressedReason(exp.settings, trace);
  const experimentItemId = exp.items[item]!.id;
  return {
    id: trace.id,
    object: 'eval.trace',
    project_id: exp.projectId,
    experiment_id: exp.id,
    experiment_item_id: experimentItemId,
    trace_type: 'experiment_candidate',
    source: 'experiment',
    group_id: experimentItemId,
    parent_trace_id: null,
    status: trace.status,
    model: trace.model,
    provider: trace.provider,
    store_content: exp.settings.store_content,
    input_content: stored ? trace.prompt : null,
    output_content: stored ? trace.output : null,
    metadata: { ...(reason ? { content_suppressed_reason: reason } : {}) },
    usage: {
      prompt_tokens: trace.promptTokens,
      completion_tokens: trace.completionTokens,
      total_tokens: trace.promptTokens + trace.completionTokens,
    },
    cost_usd: roundUsd(trace.costUsd),
    latency_ms: trace.latencyMs,
    error: trace.error,
    started_at: iso(trace.startedAt),
    completed_at: iso(trace.completedAt),
    expires_at: iso(exp.createdAt + RETENTION_MS),
  };
}

/** One row x candidate result: the row, the answer's trace and every score (pending ones too). */
export function outputItemView(exp: Experiment, item: number, candidate: number) {
  const row = exp.items[item]!;
  const cand = exp.candidates[candidate]!;
  const ti = traceIndex(exp, item, candidate);
  const trace = exp.traces[ti];
  // Work a stopped run never reached: `cancelled` after a cancel, `skipped` after a failure.
  const unrun = exp.status === 'cancelled' ? 'cancelled' : exp.status === 'failed' ? 'skipped' : 'pending';
  const status = trace ? trace.status : unrun;
  return {
    id: `${exp.id.replace('evalexp_', 'evalout_')}_${String(ti + 1).padStart(3, '0')}`,
    object: 'eval.output_item',
    experiment_id: exp.id,
    experiment_item_id: row.id,
    dataset_item_id: row.datasetItemId,
    item_index: item,
    candidate_id: cand.id,
    model: cand.model,
    status,
    // An item may come without its input (the platform's reference, issue 32): here, under PII redaction.
    ...(redacting(exp.settings) ? {} : { input: row.input }),
    expected_output: row.expected_output ?? null,
    output: trace && exp.settings.store_content && !redacting(exp.settings) ? trace.output : null,
    ...(trace && suppressedReason(exp.settings, trace)
      ? { content_suppressed_reason: suppressedReason(exp.settings, trace) }
      : {}),
    scores: exp.scorers.map((scorer, s) => {
      const result = exp.scores[scoreIndex(exp, item, candidate, s)];
      return {
        scorer_id: scorer.id,
        scorer_version_id: scorer.versionId,
        scorer_type: scorer.scorerType,
        status: result?.status ?? unrun,
        score: result?.score ?? null,
        passed: result?.passed ?? null,
        reasoning: result?.reasoning ?? null,
        error: result?.error ?? null,
      };
    }),
    cost_usd: trace ? roundUsd(trace.costUsd) : 0,
    latency_ms: trace?.latencyMs ?? null,
    error: trace?.error ?? null,
    trace: trace ? traceView(exp, item, trace) : null,
  };
}
