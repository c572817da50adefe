import { z } from 'zod';
import { CATALOG_CREATED } from '../constants.js';
import { badRequest, SandboxError } from '../errors.js';
import { resolveTextModel } from '../text/resolve.js';
import { parseWith, placeholders } from './input.js';
import type { ScorerType, ScorerVersion } from './store.js';

/**
 * What each scorer type accepts (spec 2 §2.7, §4.11). The spec gives only `exact_match`'s
 * `case_sensitive`; the sandbox defines the other configs and shows them with their defaults
 * filled in, so a scorer's `config` says exactly how it scores. Unknown config keys are refused,
 * so a typo never silently changes a score.
 */

const JSON_SCHEMA_OK = (schema: unknown): boolean => {
  try {
    z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    return true;
  } catch {
    return false;
  }
};

const compiles = (config: { pattern: string; flags?: string | undefined }): boolean => {
  try {
    new RegExp(config.pattern, config.flags);
    return true;
  } catch {
    return false;
  }
};

const THRESHOLD_METRICS = ['number', 'length', 'tokens', 'latency_ms', 'cost_usd'] as const;

const CONFIGS: Record<ScorerType, z.ZodType<Record<string, unknown>>> = {
  /** Output equals `expected_output` (both trimmed when `trim`). */
  exact_match: z.strictObject({ case_sensitive: z.boolean().default(true), trim: z.boolean().default(true) }),
  /** Output contains `value`, or `expected_output` when no value is set. */
  contains: z.strictObject({
    case_sensitive: z.boolean().default(true),
    value: z.string().min(1).optional(),
  }),
  /** Output matches the pattern (JavaScript syntax; flags from `imsu`). */
  regex: z
    .strictObject({
      pattern: z.string().min(1).max(1_000),
      flags: z
        .string()
        .regex(/^(?!.*(.).*\1)[imsu]*$/, 'flags are distinct letters of i, m, s, u')
        .optional(),
    })
    .refine(compiles, 'pattern is not a valid regular expression'),
  /** Output parses as JSON and validates against `schema` (a JSON Schema). */
  json_schema: z
    .strictObject({ schema: z.union([z.record(z.string(), z.unknown()), z.boolean()]) })
    .refine((c) => JSON_SCHEMA_OK(c.schema), 'schema is not a JSON Schema the sandbox can use'),
  /** A number taken from the trace (see THRESHOLD_METRICS) lies within [min, max]. */
  threshold: z
    .strictObject({
      metric: z.enum(THRESHOLD_METRICS).default('number'),
      min: z.number().optional(),
      max: z.number().optional(),
    })
    .refine((c) => c.min !== undefined || c.max !== undefined, 'give `min`, `max` or both')
    .refine((c) => c.min === undefined || c.max === undefined || c.min <= c.max, '`min` exceeds `max`'),
  /** The judge's score in [0, 1]; `passed` when it reaches `pass_threshold`. */
  llm_judge: z.strictObject({ pass_threshold: z.number().min(0).max(1).default(0.5) }),
  pairwise_llm: z.strictObject({ pass_threshold: z.number().min(0).max(1).default(0.5) }),
};

const JUDGE_TYPES: readonly ScorerType[] = ['llm_judge', 'pairwise_llm'];
const JUDGE_PLACEHOLDERS = ['input', 'output', 'expected_output'];
const DEFAULT_JUDGE_MODEL = 'openai/gpt-sandbox-mini';

const DEFAULT_PROMPTS: Partial<Record<ScorerType, string>> = {
  llm_judge:
    'Rate from 0 to 1 how well the answer matches the expected answer, and give your reasoning.\n' +
    'Question: {{input}}\nExpected answer: {{expected_output}}\nAnswer: {{output}}',
  pairwise_llm:
    'Say which of two answers to the same question is better, and give your reasoning.\n' +
    'Question: {{input}}\nReference: {{expected_output}}\nAnswer: {{output}}',
};

export interface ScorerDefinition {
  scorerType: ScorerType;
  config: Record<string, unknown>;
  prompt: string | null;
  judgeModel: string | null;
}

/** Checks a scorer's type, config, prompt and judge model, and fills in the defaults. */
export function readDefinition(body: {
  scorer_type: ScorerType;
  config?: Record<string, unknown> | null | undefined;
  prompt?: string | null | undefined;
  judge_model?: string | null | undefined;
}): ScorerDefinition {
  const type = body.scorer_type;
  const config = parseWith(CONFIGS[type], body.config ?? {}, ['config']);
  const judge = JUDGE_TYPES.includes(type);
  if (!judge) {
    for (const field of ['prompt', 'judge_model'] as const) {
      if (body[field] !== undefined && body[field] !== null) {
        throw badRequest(
          `\`${field}\` applies only to llm_judge and pairwise_llm scorers.`,
          'invalid_parameter_value',
          field,
        );
      }
    }
    return { scorerType: type, config, prompt: null, judgeModel: null };
  }
  const prompt = body.prompt ?? undefined;
  if (type === 'llm_judge' && (prompt === undefined || prompt.trim() === '')) {
    throw badRequest('`prompt` is required for an llm_judge scorer.', 'missing_required_parameter', 'prompt');
  }
  if (prompt !== undefined) checkJudgePrompt(prompt);
  return {
    scorerType: type,
    config,
    prompt: prompt ?? DEFAULT_PROMPTS[type] ?? null,
    judgeModel: readJudgeModel(body.judge_model ?? undefined),
  };
}

/** Judge prompts may use only `{{input}}`, `{{output}}`, `{{expected_output}}`, and must show the output. */
function checkJudgePrompt(prompt: string): void {
  const used = placeholders(prompt);
  const unknown = used.filter((name) => !JUDGE_PLACEHOLDERS.includes(name));
  if (unknown.length > 0) {
    throw badRequest(
      `Unknown placeholder ${unknown.map((n) => `{{${n}}}`).join(', ')} in \`prompt\`; use ${JUDGE_PLACEHOLDERS.map((n) => `{{${n}}}`).join(', ')}.`,
      'invalid_parameter_value',
      'prompt',
    );
  }
  if (!used.includes('output')) {
    throw badRequest(
      'A judge `prompt` must include {{output}}, the answer being judged.',
      'invalid_parameter_value',
      'prompt',
    );
  }
}

function readJudgeModel(model: string | undefined): string {
  if (model === undefined) return DEFAULT_JUDGE_MODEL;
  try {
    return resolveTextModel(model).requested;
  } catch (error) {
    if (error instanceof SandboxError) {
      throw badRequest(`\`judge_model\`: ${error.message}`, error.code ?? 'model_not_found', 'judge_model');
    }
    throw error;
  }
}

function builtin(
  id: string,
  name: string,
  description: string,
  scorerType: ScorerType,
  config: Record<string, unknown>,
): ScorerVersion {
  const judge = JUDGE_TYPES.includes(scorerType);
  return {
    id,
    versionId: `evalscorerver_builtin_${id}`,
    version: 1,
    name,
    description,
    scorerType,
    config,
    prompt: judge ? (DEFAULT_PROMPTS[scorerType] ?? null) : null,
    judgeModel: judge ? DEFAULT_JUDGE_MODEL : null,
    createdAt: CATALOG_CREATED * 1000,
    builtin: true,
  };
}

/** Scorers every key can use by id; they cannot be replaced or deleted. */
export const BUILTIN_SCORERS: readonly ScorerVersion[] = [
  builtin('exact_match', 'Exact match', 'Output equals the expected output.', 'exact_match', {
    case_sensitive: true,
    trim: true,
  }),
  builtin('contains', 'Contains', 'Output contains the expected output, ignoring case.', 'contains', {
    case_sensitive: false,
  }),
  builtin('json_valid', 'Valid JSON', 'Output is a JSON document.', 'json_schema', { schema: {} }),
  builtin(
    'llm_judge',
    'LLM judge',
    'A judge model rates the output against the expected output.',
    'llm_judge',
    {
      pass_threshold: 0.5,
    },
  ),
  builtin(
    'pairwise_llm',
    'Pairwise LLM judge',
    "A judge model compares each candidate's output with the other candidates' outputs.",
    'pairwise_llm',
    { pass_threshold: 0.5 },
  ),
];

export const findBuiltin = (id: string): ScorerVersion | undefined =>
  BUILTIN_SCORERS.find((s) => s.id === id);
