import { z } from 'zod';
import type { Price } from '../../src/budget/ledger.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { inputTokens, type TextPricing, textPricings, tokensUsd } from '../text/price.js';
import { Dataset, DatasetVersion, EVALS, ListOf, Scorer } from './replies.js';
import { parseScorerDef } from './scorer-def.js';
import { evalsPath } from './shared.js';

/** A judge call's cost is not published (spec 2 §4.11): a stated ceiling per call. */
const JUDGE_CALL_CEILING_USD = 0.02;
/** A candidate whose model the catalog does not price: a stated ceiling per answer. */
const ANSWER_CEILING_USD = 0.02;
const JUDGE_TYPES = new Set(['llm_judge', 'pairwise_llm']);
/** Datasets looked through for a version's rows before the tool's ceiling is left to hold. */
const DATASETS_SCANNED = 20;

interface Candidate {
  model: string;
  system?: string;
  prompt?: string;
}
export interface RunPlan {
  rows?: Record<string, unknown>[];
  dataset_version_id?: string;
  candidates: Candidate[];
  scorers?: unknown[];
}

type Row = { input?: unknown; system?: unknown };

/**
 * What an eval run may cost, before it starts: every row answered by every candidate at its
 * model's catalog pricing (the row's size as input, the model's max_output_tokens as output:
 * nothing sent bounds an answer), and each judge scorer's call per answer at a stated ceiling.
 * Inline rows are counted as given, a dataset version's from its listing. Undefined when the rows
 * cannot be counted, so the tool's ceiling holds.
 */
export async function evalPrice(ctx: ToolContext, plan: RunPlan): Promise<Price | undefined> {
  if (ctx.budget.limitUsd === undefined) return undefined;
  const rows: Row[] | undefined =
    plan.rows ?? (plan.dataset_version_id ? await versionRows(ctx, plan.dataset_version_id) : undefined);
  if (!rows) return undefined;
  const models = await textPricings(
    ctx,
    plan.candidates.map((c) => c.model),
  );
  let answersUsd = 0;
  for (const candidate of plan.candidates) {
    const model = models.get(candidate.model);
    for (const row of rows) answersUsd += answerUsd(model, candidate, row);
  }
  const judges = await judgeCount(ctx, plan.scorers ?? []);
  const judgeCalls = judges * rows.length * plan.candidates.length;
  const usd = answersUsd + judgeCalls * JUDGE_CALL_CEILING_USD;
  const priced = plan.candidates.filter((c) => models.has(c.model)).length;
  return {
    usd,
    basis: `${rows.length} rows x ${plan.candidates.length} candidates: ${round(answersUsd)} USD of answers (${
      priced === plan.candidates.length
        ? "each row's size in and the model's max_output_tokens out"
        : `unpriced models at a ceiling of ${ANSWER_CEILING_USD} USD per answer`
    }, with a 25% margin)${
      judgeCalls ? ` and ${judgeCalls} judge calls at a ceiling of ${JUDGE_CALL_CEILING_USD} USD each` : ''
    }`,
    less: () => 'Use fewer rows or candidates, or cheaper models',
  };
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

/** One candidate's answer to one row: its input at most, its model's output bound at most. */
function answerUsd(model: TextPricing | undefined, candidate: Candidate, row: Row): number {
  if (!model?.maxOutput) return ANSWER_CEILING_USD;
  const system = candidate.system ?? (typeof row.system === 'string' ? row.system : '');
  const bytes =
    row.input === undefined
      ? Number.POSITIVE_INFINITY // a listed row without its content: the model's whole context
      : JSON.stringify(row.input).length + system.length + (candidate.prompt?.length ?? 0) + 64;
  const input = inputTokens(model, bytes);
  if (!Number.isFinite(input)) return ANSWER_CEILING_USD;
  return tokensUsd(model, input, model.maxOutput);
}

/** Scorers that call a model: inline judge definitions, and ids whose scorer is a judge or cannot be read. */
async function judgeCount(ctx: ToolContext, scorers: unknown[]): Promise<number> {
  let judges = 0;
  for (const [i, scorer] of scorers.entries()) {
    const type =
      typeof scorer === 'string'
        ? await scorerType(ctx, scorer)
        : parseScorerDef(scorer, `scorers[${i}]`).scorer_type;
    if (type === undefined || JUDGE_TYPES.has(type)) judges += 1;
  }
  return judges;
}

async function scorerType(ctx: ToolContext, id: string): Promise<string | undefined> {
  try {
    return (await ctx.api.request({ method: 'GET', path: evalsPath('scorers', id), schema: Scorer })).data
      .scorer_type;
  } catch {
    return undefined;
  }
}

/**
 * A dataset version's rows: the spec routes versions under their dataset (spec 2 §4.11), so the
 * caller's datasets are looked through for it. Undefined when it is not found.
 */
async function versionRows(ctx: ToolContext, versionId: string): Promise<Row[] | undefined> {
  const list = async <T extends z.ZodType>(path: string, item: T) =>
    (await ctx.api.request({ method: 'GET', path, schema: ListOf(z.unknown()) })).data.data.flatMap((raw) => {
      const parsed = item.safeParse(raw);
      return parsed.success ? [parsed.data as z.infer<T>] : [];
    });
  try {
    const datasets = await list(`${EVALS}/datasets`, Dataset);
    for (const dataset of datasets.slice(0, DATASETS_SCANNED)) {
      const versions = await list(evalsPath('datasets', dataset.id, 'versions'), DatasetVersion);
      const version = versions.find((v) => v.id === versionId);
      if (!version) continue;
      if (version.items) return version.items.map((item) => (isRow(item) ? item : {}));
      return version.item_count === undefined
        ? undefined
        : Array.from({ length: version.item_count }, () => ({}));
    }
  } catch {
    // An unreadable listing leaves the tool's ceiling.
  }
  return undefined;
}

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null;
