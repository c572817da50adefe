import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InputError, NotFoundError } from '../../src/errors.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { EVALS, Scorer } from './replies.js';
import { AnyObject } from './shared.js';

/**
 * A scorer definition (spec 2 §2.7, §4.11), checked before anything is sent. The spec gives the
 * seven types, `exact_match`'s `case_sensitive`, the judge placeholders and that `llm_judge` needs
 * a prompt; the other configs follow the sandbox (the platform's emulator). Keys this server does
 * not know pass through untouched: the platform decides on them.
 */

export const SCORER_TYPES = [
  'exact_match',
  'contains',
  'regex',
  'json_schema',
  'threshold',
  'llm_judge',
  'pairwise_llm',
] as const;
const JUDGES: readonly string[] = ['llm_judge', 'pairwise_llm'];
const JUDGE_PLACEHOLDERS = ['input', 'output', 'expected_output'];
const METRICS = ['number', 'length', 'tokens', 'latency_ms', 'cost_usd'] as const;

export const ScorerDef = z.object({
  scorer_type: z.enum(SCORER_TYPES),
  config: AnyObject().optional(),
  prompt: z.string().optional(),
  judge_model: z.string().optional(),
});
export type ScorerDef = z.infer<typeof ScorerDef>;

const flag = z.boolean().optional();
const regexCompiles = (c: { pattern: string; flags?: string | undefined }) => {
  try {
    new RegExp(c.pattern, c.flags);
    return true;
  } catch {
    return false;
  }
};
const passThreshold = z.looseObject({ pass_threshold: z.number().min(0).max(1).optional() });

const CONFIGS: Record<ScorerDef['scorer_type'], z.ZodType> = {
  exact_match: z.looseObject({ case_sensitive: flag, trim: flag }),
  contains: z.looseObject({ case_sensitive: flag, value: z.string().min(1).optional() }),
  regex: z
    .looseObject({
      pattern: z.string().min(1),
      flags: z
        .string()
        .regex(/^[imsu]*$/)
        .optional(),
    })
    .refine(regexCompiles, { message: 'not a valid regular expression', path: ['pattern'] }),
  json_schema: z.looseObject({ schema: z.union([z.record(z.string(), z.unknown()), z.boolean()]) }),
  threshold: z
    .looseObject({
      metric: z.enum(METRICS).optional(),
      min: z.number().optional(),
      max: z.number().optional(),
    })
    .refine((c) => c.min !== undefined || c.max !== undefined, { message: 'give min, max or both' })
    .refine((c) => c.min === undefined || c.max === undefined || c.min <= c.max, {
      message: 'min is above max',
      path: ['min'],
    }),
  llm_judge: passThreshold,
  pairwise_llm: passThreshold,
};

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
export const placeholdersIn = (text: string): string[] => [
  ...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!)),
];

/** An inline definition as given (an object of unknown shape), checked like evals_write's `scorer`. */
export function parseScorerDef(value: unknown, param: string): ScorerDef {
  const parsed = ScorerDef.strict().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = [param, ...issue.path.map(String)].filter(Boolean).join('.') || 'scorer_type';
    throw new InputError(`\`${where}\`: ${issue.message}`, {
      param: where,
      fix: `A scorer definition is {scorer_type, config?, prompt?, judge_model?}, scorer_type one of ${SCORER_TYPES.join(', ')}.`,
    });
  }
  checkScorerDef(parsed.data, param);
  return parsed.data;
}

/** Throws an InputError naming `<prefix>.config.<field>` (or prompt, judge_model) and the fix. */
function checkScorerDef(def: ScorerDef, prefix = ''): void {
  const bad = (field: string, message: string, fix: string) => {
    const param = prefix ? `${prefix}.${field}` : field;
    return new InputError(`\`${param}\`: ${message}`, { param, fix });
  };
  const parsed = CONFIGS[def.scorer_type].safeParse(def.config ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = ['config', ...issue.path.map(String)].join('.');
    throw bad(field, issue.message, `See the ${def.scorer_type} config in docs/guide.md (Evaluations).`);
  }
  const judge = JUDGES.includes(def.scorer_type);
  if (!judge) {
    for (const field of ['prompt', 'judge_model'] as const) {
      if (def[field] !== undefined)
        throw bad(field, `applies only to llm_judge and pairwise_llm.`, `Leave out ${field}.`);
    }
    return;
  }
  if (def.scorer_type === 'llm_judge' && !def.prompt?.trim()) {
    throw bad(
      'prompt',
      'an llm_judge scorer needs a prompt.',
      'Write a prompt using {{output}}, e.g. "Does {{output}} answer {{input}} like {{expected_output}}? Give a score 0-1 and reasoning."',
    );
  }
  if (def.prompt !== undefined) {
    const used = placeholdersIn(def.prompt);
    const unknown = used.filter((name) => !JUDGE_PLACEHOLDERS.includes(name));
    if (unknown.length)
      throw bad(
        'prompt',
        `unknown placeholder {{${unknown[0]}}}.`,
        'Use only {{input}}, {{output}} and {{expected_output}}.',
      );
    if (!used.includes('output'))
      throw bad('prompt', 'the judge never sees the answer.', 'Put {{output}} in the prompt.');
  }
}

/** The body of `POST /scorers` for a definition. */
export function scorerBody(def: ScorerDef): Record<string, unknown> {
  return {
    scorer_type: def.scorer_type,
    ...(def.config ? { config: def.config } : {}),
    ...(def.prompt !== undefined ? { prompt: def.prompt } : {}),
    ...(def.judge_model !== undefined ? { judge_model: def.judge_model } : {}),
  };
}

/** Keys in a fixed order, so one definition always gives the same text (and id). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * An inline definition becomes a scorer whose id is a digest of the definition: the same
 * definition reuses the scorer made the first time, so runs never pile up scorer versions.
 */
export function inlineScorerId(def: ScorerDef): string {
  const digest = createHash('sha256')
    .update(canonical(scorerBody(def)))
    .digest('hex')
    .slice(0, 12);
  return `mcp_${def.scorer_type}_${digest}`;
}

export async function ensureInlineScorer(ctx: ToolContext, def: ScorerDef): Promise<string> {
  const id = inlineScorerId(def);
  try {
    await ctx.api.request({ method: 'GET', path: `${EVALS}/scorers/${id}`, schema: Scorer });
    return id;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const body = { id, name: `${def.scorer_type} (inline)`, ...scorerBody(def) };
  await ctx.api.request({ method: 'POST', path: `${EVALS}/scorers`, body, schema: Scorer });
  return id;
}
