import { z } from 'zod';
import type { Price } from '../../src/budget.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { readReply } from '../../src/replies/read.js';
import { fetchCatalog } from '../models/shared.js';
import type { ChatRequest } from './request.js';

/** Catalog pricing of a text model: USD per million tokens (spec 2 §4.4). */
const TokenPricing = z.object({ prompt: z.coerce.number(), completion: z.coerce.number() });
/** A provider chosen by header is billed at its own price with a markup (spec 2 §4.2): a margin for it. */
const MARGIN = 1.25;
/** `:online` adds a search: 0.006 USD, or 0.06 for the deep variant (spec 2 §4.3); the dearer is held. */
const ONLINE_SEARCH_USD = 0.06;

/**
 * What a chat call may cost, from the model's catalog pricing: the request's input (at most 1 token
 * per 2 bytes sent, and never past the model's context) and its output bound (max_tokens, or the
 * model's max_output_tokens), with a margin for provider markups. Read only when a budget is set
 * (otherwise nothing can be refused, and a chat call pays no catalog read); undefined leaves the
 * tool's ceiling (a model not in the catalog, no pricing, no output bound).
 */
export async function chatPrice(ctx: ToolContext, request: ChatRequest): Promise<Price | undefined> {
  if (ctx.budget.limitUsd === undefined) return undefined;
  const id = String(request.body.model ?? '');
  const base = id.split(':')[0]!;
  const model = (await fetchCatalog(ctx.api, 'text', { detailed: true }).catch(() => [])).find(
    (m) => m.id === base,
  );
  const pricing = readReply(TokenPricing, model?.pricing);
  if (!model || !pricing.success) return undefined;
  const output = Number(request.body.max_tokens ?? request.body.max_output_tokens ?? model.max_output_tokens);
  if (!Number.isFinite(output) || output <= 0) return undefined;
  const input = Math.min(
    Math.ceil(JSON.stringify(request.body).length / 2),
    model.context_length ?? Infinity,
  );
  const tokensUsd = ((input * pricing.data.prompt + output * pricing.data.completion) / 1e6) * MARGIN;
  const searchUsd = id.includes(':online') ? ONLINE_SEARCH_USD : 0;
  return {
    usd: tokensUsd + searchUsd,
    basis: `${base} at ${pricing.data.prompt}/${pricing.data.completion} USD per million input/output tokens, up to ${input} input and ${output} output tokens, with a ${Math.round((MARGIN - 1) * 100)}% margin${searchUsd ? ' and a search' : ''}`,
  };
}
