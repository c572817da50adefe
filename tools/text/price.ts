import { z } from 'zod';
import type { Price } from '../../src/budget/ledger.js';
import { isRecord } from '../../src/lang.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { readReply } from '../../src/replies/read.js';
import { fetchCatalog, type ModelRecord } from '../models/shared.js';
import type { ChatArgs } from './options.js';
import { type ChatRequest, THINKING_BUDGET } from './request.js';

/** Catalog pricing of a text model: USD per million tokens (spec 2 §4.4). */
const TokenPricing = z.object({ prompt: z.coerce.number(), completion: z.coerce.number() });
/** A provider chosen by header is billed at its own price with a markup (spec 2 §4.2): a margin for it. */
const MARGIN = 1.25;
/** `:online` adds a search: 0.006 USD, or 0.06 for the deep variant (spec 2 §4.3); the dearer is held. */
const ONLINE_SEARCH_USD = 0.06;
/** Fewer output tokens than this buy no useful answer: the budget refuses rather than shapes below it. */
const LEAST_USEFUL_TOKENS = 64;

/** What the budget needs of a text model: its token prices and bounds (spec 2 §2.1, detailed catalog). */
export interface TextPricing {
  id: string;
  /** USD per million input and output tokens. */
  prompt: number;
  completion: number;
  contextLength?: number;
  maxOutput?: number;
  /** The catalog flags it as reasoning (`capabilities.reasoning`, a guess: docs/platform-assumptions.md). */
  reasons: boolean;
}

/** The model's pricing from the detailed text catalog; undefined when it is not listed or not priced. */
async function textPricing(ctx: ToolContext, id: string): Promise<TextPricing | undefined> {
  return (await textPricings(ctx, [id])).get(id);
}

/** The pricing of each model listed and priced in the detailed text catalog (one read), by id as asked. */
export async function textPricings(ctx: ToolContext, ids: string[]): Promise<Map<string, TextPricing>> {
  const models = await fetchCatalog(ctx.api, 'text', { detailed: true }).catch(() => []);
  const found = new Map<string, TextPricing>();
  for (const id of ids) {
    const base = id.split(':')[0]!;
    const model = models.find((m) => m.id === base);
    const pricing = model && pricingOf(model);
    if (pricing) found.set(id, pricing);
  }
  return found;
}

function pricingOf(model: ModelRecord): TextPricing | undefined {
  const pricing = readReply(TokenPricing, model.pricing);
  if (!pricing.success) return undefined;
  const positive = (n: unknown) => (typeof n === 'number' && n > 0 ? n : undefined);
  return {
    id: model.id,
    ...pricing.data,
    contextLength: positive(model.context_length),
    maxOutput: positive(model.max_output_tokens),
    reasons: isRecord(model.capabilities) && model.capabilities.reasoning === true,
  };
}

/** Input tokens of a request of `bytes`: at most 1 token per 2 bytes, and never past the context. */
export const inputTokens = (model: TextPricing, bytes: number): number =>
  Math.min(Math.ceil(bytes / 2), model.contextLength ?? Number.POSITIVE_INFINITY);

/** USD for `input` and `output` tokens at the model's prices, with the margin for provider markups. */
export const tokensUsd = (model: TextPricing, input: number, output: number): number =>
  ((input * model.prompt + output * model.completion) / 1e6) * MARGIN;

/** Output tokens `usd` pays for once `input` tokens are paid. */
const outputFor = (model: TextPricing, input: number, usd: number): number =>
  Math.floor(((usd / MARGIN) * 1e6 - input * model.prompt) / model.completion);

const pricesOf = (model: TextPricing) =>
  `${model.id} at ${model.prompt}/${model.completion} USD per million input/output tokens`;

/**
 * What a chat call may cost, from the model's catalog pricing: the request's input, its output
 * bound (max_tokens, or the model's max_output_tokens), the reasoning the model may do beyond it,
 * a margin for provider markups and an `:online` search. When the caller set no max_tokens and
 * that worst case passes what the budget has left, `fit` chooses max_tokens (`shaped`), never
 * fewer than LEAST_USEFUL_TOKENS: below that the reservation is refused. Read only when a
 * budget is set; undefined leaves the tool's ceiling (a model not in the catalog, no pricing, no
 * output bound).
 */
export async function chatPrice(
  ctx: ToolContext,
  args: ChatArgs,
  request: ChatRequest,
): Promise<Price | undefined> {
  if (ctx.budget.limitUsd === undefined) return undefined;
  const id = String(request.body.model ?? '');
  const model = await textPricing(ctx, id);
  if (!model) return undefined;
  const sentBound = Number(request.body.max_tokens ?? request.body.max_output_tokens);
  const bound = Number.isFinite(sentBound) && sentBound > 0 ? sentBound : model.maxOutput;
  if (bound === undefined) return undefined;
  // The budget's own max_tokens adds a few bytes to the body.
  const input = inputTokens(model, JSON.stringify(request.body).length + 24);
  const reasoning = reasoningTokens(args, request, model);
  const searchUsd = id.includes(':online') ? ONLINE_SEARCH_USD : 0;
  const least = LEAST_USEFUL_TOKENS + (thinkingBudgetOf(request) ?? 0);
  const usdFor = (answer: number) => tokensUsd(model, input, answer + reasoning) + searchUsd;
  // Less a micro-dollar: what is left is shown rounded to one.
  const affordable = (leftUsd: number) => outputFor(model, input, leftUsd - 1e-6 - searchUsd) - reasoning;
  const basis = (answer: number) =>
    `${pricesOf(model)}, up to ${input} input and ${answer} output tokens${
      reasoning ? ` and ${reasoning} reasoning tokens (a stated ceiling: nothing sent bounds reasoning)` : ''
    }, with a ${Math.round((MARGIN - 1) * 100)}% margin${searchUsd ? ' and a search' : ''}`;
  const less = (leftUsd: number) => {
    const most = affordable(leftUsd);
    if (most >= least) return `Pass max_tokens ${most} or less (what ${leftUsd} USD left pays for)`;
    return `${leftUsd} USD left pays for fewer than ${least} output tokens (max_tokens) of ${model.id}${reasoning ? ' after its reasoning' : ''}: pick a cheaper model${reasoning ? ' or a lower reasoning_effort' : ''}`;
  };
  const full: Price = { usd: usdFor(bound), basis: basis(bound), less };
  if (args.max_tokens !== undefined) return full;
  // Not asked for: when the worst case does not fit, the budget sends what is left pays for.
  full.fit = (left) => {
    const shaped = Math.max(least, Math.min(bound, affordable(left)));
    if (shaped >= bound) return undefined;
    return {
      usd: usdFor(shaped),
      basis: basis(shaped),
      less,
      shaped: {
        args: { max_tokens: shaped },
        said: `The spend budget sent max_tokens ${shaped}: what its ${left} USD left pays for (${bound} output tokens would reserve ${round(full.usd)} USD).`,
      },
    };
  };
  return full;
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

/**
 * Reasoning beyond max_tokens: a reasoning model, `:thinking`, or a reasoning_effort may think
 * past the answer's bound (the messages format counts its thinking within max_tokens, spec 2
 * §4.1). No field sent bounds it, so a stated ceiling per effort is reserved (medium when not said).
 */
function reasoningTokens(args: ChatArgs, request: ChatRequest, model: TextPricing): number {
  if (request.format === 'messages' || args.reasoning_effort === 'none') return 0;
  const id = String(request.body.model).toLowerCase();
  const thinkingId = id.includes(':thinking') || id.includes('-thinking');
  const asked = thinkingId || args.reasoning_effort !== undefined;
  if (!asked && !model.reasons) return 0;
  const effort = args.reasoning_effort ?? 'medium';
  return Math.min(THINKING_BUDGET[effort], model.maxOutput ?? Number.POSITIVE_INFINITY);
}

/** The messages format's thinking budget, which max_tokens must stay above. */
function thinkingBudgetOf(request: ChatRequest): number | undefined {
  const thinking = request.body.thinking as { budget_tokens?: unknown } | undefined;
  return typeof thinking?.budget_tokens === 'number' ? thinking.budget_tokens : undefined;
}
