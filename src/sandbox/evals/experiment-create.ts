import { z } from 'zod';
import { badRequest, SandboxError } from '../errors.js';
import { type KeyRecord, toNanos } from '../state.js';
import { resolveTextModel } from '../text/resolve.js';
import type { SandboxContext } from '../types.js';
import { roundUsd } from '../util.js';
import { evalTables, notFound } from './access.js';
import { plannedCost } from './candidate.js';
import type { Candidate, Experiment, ExperimentItem, Settings } from './experiment.js';
import { DescriptionSchema, NameSchema, parseWith, placeholders, RowSchema } from './input.js';
import { checkRunAllowance, checkRunLimits } from './limits.js';
import { defaultProject } from './projects.js';
import { latestScorer } from './scorers.js';
import { newId } from './store.js';
import { evalTiming } from './timeline.js';

const CandidateSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'ids are 1..100 letters, digits, `_`, `.` or `-`')
    .optional(),
  name: z.string().trim().min(1).max(200).optional(),
  model: z.string().min(1),
  system: z.string().max(20_000).nullable().optional(),
  prompt: z.string().min(1).max(20_000).nullable().optional(),
});

const CreateExperiment = z.object({
  name: NameSchema.optional(),
  description: DescriptionSchema,
  project_id: z.string().min(1).optional(),
  dataset_version_id: z.string().min(1).optional(),
  /** Inline rows instead of a dataset version; `rows` is accepted as another name. */
  items: z.array(RowSchema).optional(),
  rows: z.array(RowSchema).optional(),
  candidates: z.array(CandidateSchema).min(1, 'give 1 to 5 candidates'),
  scorer_ids: z.array(z.string().min(1)).optional(),
  settings: z
    .object({
      store_content: z.boolean().optional(),
      redaction: z.union([z.boolean(), z.string()]).optional(),
    })
    .nullable()
    .optional(),
});

/**
 * Checks a `POST /experiments` body (spec 2 §4.11) in the order a caller can act on: the shape,
 * then the §8 limits, then what it refers to, then the rate limit and the balance; and builds the
 * experiment, `queued` (or `in_progress` when the queue time is 0).
 */
export function createExperiment(
  ctx: SandboxContext,
  key: KeyRecord,
  raw: Record<string, unknown>,
): Experiment {
  const owner = key.key;
  const body = parseWith(CreateExperiment, raw);
  const tables = evalTables(ctx);
  const inline = body.items ?? body.rows;
  const rowsParam = body.items ? 'items' : 'rows';
  if (inline && body.dataset_version_id !== undefined) {
    throw badRequest(
      'Send `dataset_version_id` or inline `items`, not both.',
      'invalid_parameter_value',
      rowsParam,
    );
  }
  if (!inline && body.dataset_version_id === undefined) {
    throw badRequest(
      '`dataset_version_id` (or inline `items`) is required.',
      'missing_required_parameter',
      'dataset_version_id',
    );
  }
  let items: Omit<ExperimentItem, 'id'>[];
  if (inline) {
    items = inline.map((row) => ({
      datasetItemId: null,
      input: row.input,
      expected_output: row.expected_output ?? null,
      context: row.context ?? null,
      metadata: row.metadata ?? {},
      ...(row.system !== undefined ? { system: row.system } : {}),
    }));
  } else {
    const id = body.dataset_version_id!;
    const version = tables.versions.get(owner, id);
    if (!version) throw withParam(notFound('dataset version', id), 'dataset_version_id');
    items = version.items.map(({ id: _versionItemId, ...item }) => structuredClone(item));
  }
  const scorerIds = body.scorer_ids ?? [];
  checkRunLimits(
    items.length,
    body.candidates.length,
    scorerIds.length,
    inline ? rowsParam : 'dataset_version_id',
  );

  const candidates = body.candidates.map(readCandidate);
  candidates.forEach((candidate, i) => {
    if (candidates.findIndex((other) => other.id === candidate.id) !== i) {
      throw badRequest(
        `Candidate id "${candidate.id}" is used twice.`,
        'invalid_parameter_value',
        `candidates[${i}].id`,
      );
    }
  });
  const scorers = scorerIds.map((id, i) => {
    if (scorerIds.indexOf(id) !== i) {
      throw badRequest(`Scorer "${id}" is listed twice.`, 'invalid_parameter_value', `scorer_ids[${i}]`);
    }
    const scorer = latestScorer(ctx, owner, id);
    if (!scorer) throw withParam(notFound('scorer', id), `scorer_ids[${i}]`);
    return structuredClone(scorer);
  });
  const project =
    body.project_id === undefined ? defaultProject(ctx, owner) : tables.projects.get(owner, body.project_id);
  if (!project) throw withParam(notFound('project', body.project_id!), 'project_id');

  const commitRun = checkRunAllowance(ctx, owner, items.length);
  const cost = roundUsd(plannedCost(ctx, owner, items, candidates));
  if (key.account.balanceNanos < toNanos(cost)) {
    throw new SandboxError(402, 'Insufficient balance', {
      body: { error: 'Insufficient balance', requiredBalance: cost, status: 402 },
    });
  }
  commitRun();

  const id = newId(ctx.state, 'evalexp_');
  const { queueMs, stepMs } = evalTiming(ctx);
  const now = ctx.now();
  const experiment: Experiment = {
    id,
    owner,
    projectId: project.id,
    name: body.name ?? `Experiment ${id}`,
    description: body.description ?? null,
    datasetVersionId: body.dataset_version_id ?? null,
    candidates,
    scorers,
    settings: readSettings(body.settings ?? {}, project.settings),
    items: items.map((item, i) => ({
      ...item,
      id: `${id.replace('evalexp_', 'evalexpitem_')}_${String(i + 1).padStart(3, '0')}`,
    })),
    createdAt: now,
    queueMs,
    stepMs,
    status: queueMs <= 0 ? 'in_progress' : 'queued',
    ...(queueMs <= 0 ? { startedAt: now } : {}),
    stepsDone: 0,
    traces: [],
    scores: [],
    error: null,
  };
  return tables.experiments.put(experiment);
}

function readCandidate(raw: z.output<typeof CandidateSchema>, i: number): Candidate {
  const prompt = raw.prompt ?? '{{input}}';
  const used = placeholders(prompt);
  if (!used.includes('input') || used.some((name) => name !== 'input')) {
    throw badRequest(
      'A candidate `prompt` must contain {{input}} and no other placeholder.',
      'invalid_parameter_value',
      `candidates[${i}].prompt`,
    );
  }
  try {
    resolveTextModel(raw.model);
  } catch (error) {
    if (error instanceof SandboxError) throw withParam(error, `candidates[${i}].model`);
    throw error;
  }
  return {
    id: raw.id ?? `cand_${i + 1}`,
    name: raw.name ?? raw.model,
    model: raw.model,
    system: raw.system ?? null,
    prompt,
  };
}

/** Settings default to the project's `store_content` and `redaction`, else off. */
function readSettings(
  given: { store_content?: boolean | undefined; redaction?: boolean | string | undefined },
  project: Record<string, unknown>,
): Settings {
  const projectStore = typeof project.store_content === 'boolean' ? project.store_content : false;
  const projectRedaction =
    typeof project.redaction === 'boolean' || typeof project.redaction === 'string'
      ? project.redaction
      : false;
  return {
    store_content: given.store_content ?? projectStore,
    redaction: given.redaction ?? projectRedaction,
  };
}

const withParam = (error: SandboxError, param: string): SandboxError =>
  new SandboxError(error.status, error.message, { type: error.type, code: error.code, param });
