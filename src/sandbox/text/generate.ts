import { charge } from '../billing.js';
import { SANDBOX_WORD } from '../constants.js';
import { search } from '../search.js';
import type { KeyRecord, SandboxState } from '../state.js';
import type { SandboxContext } from '../types.js';
import { roundUsd, sha256Hex } from '../util.js';
import type { ResolvedModel } from './resolve.js';
import { estimateTokens } from './tokens.js';

/** The `:online` search fee (spec 2 §4.3: 10 results for 0.006 USD). */
export const ONLINE_FEE_USD = 0.006;
const PROMPT_CACHE = 'prompt-cache';

export interface GenerationInput {
  resolved: ResolvedModel;
  /** Every input text (system and all messages), for the prompt token count. */
  promptText: string;
  lastUserText: string;
  maxTokens?: number;
  /** A thinking budget or `:thinking` asked for reasoning. */
  thinking?: boolean;
  /** `reasoning.exclude`: reasoning happens (and is billed) but is not returned. */
  excludeReasoning?: boolean;
  /** `reasoning_effort: none`: no reasoning at all. */
  reasoningOff?: boolean;
  /** `caching: true` or `prompt_caching.enabled` in the body. */
  caching?: boolean;
  /** Whose prompt cache this is (the key), so one key's cache never serves another. */
  cacheScope: string;
}

export interface Generation {
  modelId: string;
  text: string;
  /** Reasoning to show; undefined when the model did not reason or it is excluded. */
  reasoning: string | undefined;
  reasoningTokens: number;
  promptTokens: number;
  /** Answer plus reasoning tokens. */
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  caching: boolean;
  /** Set when this reply writes the prompt cache (done by `settle`, after payment). */
  cacheSignature: string | undefined;
  finish: 'stop' | 'length';
  costUsd: number;
  cacheCostUsd: number;
}

/**
 * Works out a whole reply before anything is sent, so the price is known up front (a 402 comes
 * before the stream starts) and the same request always gives the same words and numbers.
 */
export function generate(state: SandboxState, input: GenerationInput): Generation {
  const { resolved } = input;
  const { model } = resolved;
  const subject = input.lastUserText.replace(/\s+/g, ' ').trim().slice(0, 200);
  let text =
    `Sandbox reply to: "${subject}". This answer comes from the ${SANDBOX_WORD} sandbox, which ` +
    'gives the same words to the same request, so tests and offline agents can rely on it.';
  if (resolved.online) {
    const sources = search(subject || 'sandbox', { count: 3 });
    text += `\n\nSources:\n${sources.map((s, i) => `${i + 1}. ${s.title} (${s.url})`).join('\n')}`;
  }
  let finish: Generation['finish'] = 'stop';
  if (input.maxTokens !== undefined && estimateTokens(text) > input.maxTokens) {
    text = text.slice(0, Math.max(0, input.maxTokens) * 4);
    finish = 'length';
  }

  const reasons =
    !input.reasoningOff &&
    (model.reasoning === 'always' ||
      (model.reasoning === 'on-request' && (resolved.thinking || input.thinking === true)));
  const reasoningText = reasons
    ? `The user wrote "${subject.slice(0, 80)}". A sandbox reply is fixed, so the plan is simple: ` +
      'restate the request, then give the deterministic answer.'
    : undefined;
  const hideReasoning = resolved.excludeReasoning || input.excludeReasoning === true;
  const reasoningTokens = reasoningText ? estimateTokens(reasoningText) : 0;

  const promptTokens = estimateTokens(input.promptText);
  const caching = resolved.caching || input.caching === true;
  let cachedTokens = 0;
  let cacheWriteTokens = 0;
  let cacheSignature: string | undefined;
  if (caching) {
    // First sight of a prompt writes the cache; the same prompt again reads all of it.
    const signature = `${input.cacheScope}|${model.id}|${sha256Hex(input.promptText)}`;
    if (state.collection<true>(PROMPT_CACHE).has(signature)) cachedTokens = promptTokens;
    else {
      cacheSignature = signature;
      cacheWriteTokens = promptTokens;
    }
  }

  const completionTokens = estimateTokens(text) + reasoningTokens;
  const f = resolved.priceFactor;
  const cacheCostUsd = roundUsd((cachedTokens * model.pricing.prompt * 0.1 * f) / 1e6);
  const costUsd = roundUsd(
    ((promptTokens - cachedTokens) * model.pricing.prompt * f) / 1e6 +
      cacheCostUsd +
      (completionTokens * model.pricing.completion * f) / 1e6 +
      (resolved.online ? ONLINE_FEE_USD : 0),
  );
  return {
    modelId: model.id,
    text,
    reasoning: hideReasoning ? undefined : reasoningText,
    reasoningTokens,
    promptTokens,
    completionTokens,
    cachedTokens,
    cacheWriteTokens,
    caching,
    cacheSignature,
    finish,
    costUsd,
    cacheCostUsd,
  };
}

/** Charges the reply, then records what it changed: the prompt cache and the key's recent models. */
export function settle(ctx: SandboxContext, record: KeyRecord, gen: Generation): void {
  charge(ctx, record, gen.costUsd);
  if (gen.cacheSignature) ctx.state.collection<true>(PROMPT_CACHE).set(gen.cacheSignature, true);
  ctx.state.noteModelUse(record, gen.modelId);
}

/** The `x_<word>_pricing` object (spec 2 §6). */
export function pricingOf(gen: Generation): Record<string, unknown> {
  return {
    amount: gen.costUsd,
    currency: 'USD',
    cost: gen.costUsd,
    paymentSource: 'USD',
    inputTokens: gen.promptTokens,
    outputTokens: gen.completionTokens,
    ...(gen.caching ? { cacheCost: gen.cacheCostUsd } : {}),
  };
}
