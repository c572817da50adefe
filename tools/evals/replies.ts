import { z } from 'zod';
import { toNumber } from '../../src/replies/number.js';

/**
 * The evaluation objects of spec 2 §2.7 as the platform sends them, validated at the boundary.
 * Only the fields the tools rely on are required; the rest pass through (replies are additive).
 * Output items are named in §4.11 without a shape, so their reader is lenient by design.
 */

export const EVALS = '/api/v1/evals';

const Id = z.string().min(1);

export const ListOf = <T extends z.ZodType>(item: T) => z.looseObject({ data: z.array(item) });

// Spec 2 §2.7 lists a project's fields without marking any required: `id` is what it is.
export const Project = z.looseObject({ id: Id, name: z.string().optional() });

// A dataset object's fields are not in spec 2 §2.7's table: `id` is what it is, the rest optional.
export const Dataset = z.looseObject({
  id: Id,
  name: z.string().optional(),
  items: z.array(z.unknown()).optional(),
});

export const DatasetVersion = z.looseObject({
  id: Id,
  version: z.number().int(),
  // The count's type is not fixed (spec 2 §2.7): a numeric string is read as its number.
  item_count: z.preprocess(toNumber, z.number().int()).optional(),
  items: z.array(z.unknown()).optional(),
});

// Spec 2 §2.7 lists a scorer's fields without marking any required: `id` is what it is.
export const Scorer = z.looseObject({ id: Id, scorer_type: z.string().optional() });

export const Deleted = z.looseObject({ deleted: z.literal(true), id: Id });

const ExperimentStatus = z.enum(['queued', 'in_progress', 'completed', 'failed', 'cancelled']);
export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

// Spec 2 §2.7 lists the experiment's fields, none marked required: `id` and `status` are what it
// is; the progress counts may be missing or numeric strings (a missing count reads as unknown).
const Count = z.preprocess(toNumber, z.number().int().min(0)).optional();

export const Experiment = z.looseObject({
  id: Id,
  status: ExperimentStatus,
  progress: z
    .looseObject({
      total_items: Count,
      total_traces: Count,
      completed_traces: Count,
      failed_traces: Count,
      total_scores: Count,
      completed_scores: Count,
      failed_scores: Count,
    })
    .optional(),
  settings: z.looseObject({ store_content: z.boolean().optional() }).nullish(),
  error: z.union([z.looseObject({ code: z.string().optional(), message: z.string() }), z.string()]).nullish(),
});
export type Experiment = z.infer<typeof Experiment>;

/** A number the platform may send as a numeric string (the output item shape is not shown). */
const Numeric = z.preprocess(toNumber, z.number().nullish());

/**
 * One score of an output item. Spec 2 does not show its shape: nothing is required; a score
 * without `status` is read from what it carries (a number is a result, an error a failure).
 */
export const Score = z.looseObject({
  scorer_id: z.string().optional(),
  scorer: z.string().optional(),
  status: z.string().optional(),
  score: Numeric,
  passed: z.boolean().nullish().catch(undefined),
  reasoning: z.string().nullish().catch(undefined),
  error: z
    .union([z.looseObject({ message: z.string() }), z.string()])
    .nullish()
    .catch(undefined),
});
export type Score = z.infer<typeof Score>;

/** `completed`, `failed` or still `pending`, from the status when sent, else from what the score carries. */
export function scoreState(score: Score): 'completed' | 'failed' | 'pending' {
  if (score.status === 'failed' || score.status === 'error') return 'failed';
  if (score.status === 'completed' || (score.status === undefined && typeof score.score === 'number'))
    return typeof score.score === 'number' ? 'completed' : 'failed';
  if (score.status === undefined && score.error) return 'failed';
  return 'pending';
}

export const scoreError = (score: Score): string | undefined =>
  typeof score.error === 'string' ? score.error : score.error?.message;

/** An output item (§4.11 names the route, not the shape): every field is read when present. */
export const OutputItem = z.looseObject({
  id: z.string().optional(),
  item_index: z.preprocess(toNumber, z.number().int().min(0).optional()).catch(undefined),
  candidate_id: z.string().optional(),
  model: z.string().optional(),
  status: z.string().optional(),
  // The platform's reference shows an item without its input (issue 32).
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  content_suppressed_reason: z.string().optional(),
  scores: z.array(z.unknown()).optional().catch(undefined),
  cost_usd: Numeric.catch(undefined),
  trace: z
    .looseObject({
      cost_usd: Numeric.catch(undefined),
      metadata: z.looseObject({ content_suppressed_reason: z.string().optional() }).nullish(),
    })
    .nullish()
    .catch(undefined),
});
export type OutputItem = z.infer<typeof OutputItem>;

/** A page of output items; each item is read on its own (see usableList). */
export const OutputPage = z.looseObject({
  data: z.array(z.unknown()),
  has_more: z.boolean().optional().catch(undefined),
  last_id: z.string().nullish().catch(undefined),
});
