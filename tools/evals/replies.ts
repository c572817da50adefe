import { z } from 'zod';

/**
 * The evaluation objects of spec 2 §2.7 as the platform sends them, validated at the boundary.
 * Only the fields the tools rely on are required; the rest pass through (replies are additive).
 * Output items are named in §4.11 without a shape, so their reader is lenient by design.
 */

export const EVALS = '/api/v1/evals';

const Id = z.string().min(1);

export const ListOf = <T extends z.ZodType>(item: T) => z.looseObject({ data: z.array(item) });

export const Project = z.looseObject({ id: Id, name: z.string() });

export const Dataset = z.looseObject({ id: Id, name: z.string(), items: z.array(z.unknown()).optional() });

export const DatasetVersion = z.looseObject({
  id: Id,
  version: z.number().int(),
  item_count: z.number().int().optional(),
  items: z.array(z.unknown()).optional(),
});

export const Scorer = z.looseObject({ id: Id, scorer_type: z.string() });

export const Deleted = z.looseObject({ deleted: z.literal(true), id: Id });

export const ExperimentStatus = z.enum(['queued', 'in_progress', 'completed', 'failed', 'cancelled']);
export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const Count = z.number().int().min(0);

export const Experiment = z.looseObject({
  id: Id,
  status: ExperimentStatus,
  progress: z.looseObject({
    total_items: Count,
    total_traces: Count,
    completed_traces: Count,
    failed_traces: Count,
    total_scores: Count,
    completed_scores: Count,
    failed_scores: Count,
  }),
  settings: z.looseObject({ store_content: z.boolean().optional() }).nullish(),
  error: z.union([z.looseObject({ code: z.string().optional(), message: z.string() }), z.string()]).nullish(),
});
export type Experiment = z.infer<typeof Experiment>;

const Score = z.looseObject({
  scorer_id: z.string(),
  status: z.string(),
  score: z.number().nullish(),
  passed: z.boolean().nullish(),
  reasoning: z.string().nullish(),
  error: z.looseObject({ message: z.string() }).nullish(),
});

export const OutputItem = z.looseObject({
  id: Id,
  item_index: z.number().int().min(0),
  candidate_id: z.string().optional(),
  model: z.string().optional(),
  status: z.string(),
  input: z.unknown(),
  output: z.string().nullish(),
  content_suppressed_reason: z.string().optional(),
  scores: z.array(Score),
  cost_usd: z.number().nullish(),
  trace: z
    .looseObject({
      cost_usd: z.number().nullish(),
      metadata: z.looseObject({ content_suppressed_reason: z.string().optional() }).nullish(),
    })
    .nullish(),
});
export type OutputItem = z.infer<typeof OutputItem>;

export const OutputPage = z.looseObject({
  data: z.array(OutputItem),
  has_more: z.boolean().optional(),
  last_id: z.string().nullish(),
});
