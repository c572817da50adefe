import { charge } from '../billing.js';
import { SANDBOX_WORD } from '../constants.js';
import { search } from '../search.js';
import type { KeyRecord, SandboxState } from '../state.js';
import type { SandboxContext } from '../types.js';
import { roundUsd } from '../util.js';
import type { Effort } from './options.js';
import { type CacheOutcome, commitCache, NO_CACHE } from './prompt-cache.js';
import type { ResolvedModel } from './resolve.js';
import type { Route } from './routing.js';
import { estimateTokens } from './tokens.js';
import { planToolCalls, type ToolCall, type ToolResult, type ToolSetup } from './tools.js';

/** The `:online` search fee (spec 2 §4.3: 10 results for 0.006 USD). */
const ONLINE_FEE_USD = 0.006;
/** Prompt-cache prices relative to the input price: reads, and writes by TTL. */
const CACHE_READ = 0.1;
const CACHE_WRITE = { '5m': 1.25, '1h': 2 };

export interface GenerationInput {
  resolved: ResolvedModel;
  /** Every input text (tools, system and all messages), for the prompt token count. */
  promptText: string;
  lastUserText: string;
  maxTokens?: number;
  /** A thinking budget or `:thinking` asked for reasoning. */
  thinking?: boolean;
  /** `reasoning.exclude`: reasoning happens (and is billed) but is not returned. */
  excludeReasoning?: boolean;
  /** `reasoning_effort: none`: no reasoning at all. */
  reasoningOff?: boolean;
  /** `reasoning_effort` / `reasoning.effort`: any value but none turns on-request reasoning on. */
  effort?: Effort;
  /** What the prompt cache gave and takes (text/prompt-cache.ts); none when absent. */
  cache?: CacheOutcome;
  /** The provider chosen (text/routing.ts); the suffix's price factor applies when absent. */
  route?: Route;
  tools?: ToolSetup;
  /** The conversation ends with these tool results: answer with them. */
  toolResults?: ToolResult[];
  /** User turns before the last one that the reply should show it saw (stored conversations). */
  earlierUserTexts?: string[];
  /** The moderation preflight fee already charged. */
  moderationUsd?: number;
  /** Kept for callers of the first version; caching is now `cache`. */
  cacheScope?: string;
}

export interface Generation {
  modelId: string;
  text: string;
  toolCalls: ToolCall[];
  /** Reasoning to show; undefined when the model did not reason or it is excluded. */
  reasoning: string | undefined;
  reasoningTokens: number;
  promptTokens: number;
  /** Answer, tool calls and reasoning tokens. */
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  caching: boolean;
  cache: CacheOutcome;
  finish: 'stop' | 'length' | 'tool_calls';
  /** USD this reply charges (0 when a subscription covers it). */
  costUsd: number;
  cacheCostUsd: number;
  moderationUsd: number;
  covered: boolean;
  provider: string | undefined;
}

/**
 * Works out a whole reply before anything is sent, so the price is known up front (a 402 comes
 * before the stream starts) and the same request always gives the same words and numbers.
 */
export function generate(_state: SandboxState, input: GenerationInput): Generation {
  const { resolved } = input;
  const { model } = resolved;
  const subject = oneLine(input.lastUserText, 200);
  const results = input.toolResults ?? [];
  const toolCalls = planToolCalls(input.tools, input.lastUserText, results.length > 0);
  let text = toolCalls.length > 0 ? '' : replyText(subject, results, input.earlierUserTexts ?? []);
  if (resolved.online && toolCalls.length === 0) {
    const sources = search(subject || 'sandbox', { count: 3 });
    text += `\n\nSources:\n${sources.map((s, i) => `${i + 1}. ${s.title} (${s.url})`).join('\n')}`;
  }
  let finish: Generation['finish'] = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (input.maxTokens !== undefined && estimateTokens(text) > input.maxTokens) {
    text = text.slice(0, Math.max(0, input.maxTokens) * 4);
    finish = 'length';
  }

  const asked =
    resolved.thinking || input.thinking === true || (input.effort !== undefined && input.effort !== 'none');
  const reasons =
    !input.reasoningOff && (model.reasoning === 'always' || (model.reasoning === 'on-request' && asked));
  const reasoningText = reasons ? reasoningFor(subject, input.effort) : undefined;
  const hideReasoning = resolved.excludeReasoning || input.excludeReasoning === true;
  const reasoningTokens = reasoningText ? estimateTokens(reasoningText) : 0;

  const promptTokens = estimateTokens(input.promptText);
  const cache = input.cache ?? NO_CACHE;
  const callTokens = toolCalls.reduce((sum, call) => sum + estimateTokens(call.name + call.arguments), 0);
  const completionTokens = estimateTokens(text) + callTokens + reasoningTokens;
  const f = input.route?.priceFactor ?? resolved.priceFactor;
  const inputUsd = (model.pricing.prompt * f) / 1e6;
  const cacheCostUsd = roundUsd(
    cache.readTokens * inputUsd * CACHE_READ + cache.writeTokens * inputUsd * CACHE_WRITE[cache.ttl],
  );
  const covered = input.route?.covered === true;
  const costUsd = covered
    ? 0
    : roundUsd(
        (promptTokens - cache.readTokens - cache.writeTokens) * inputUsd +
          cacheCostUsd +
          (completionTokens * model.pricing.completion * f) / 1e6 +
          (resolved.online ? ONLINE_FEE_USD : 0),
      );
  return {
    modelId: model.id,
    text,
    toolCalls,
    reasoning: hideReasoning ? undefined : reasoningText,
    reasoningTokens,
    promptTokens,
    completionTokens,
    cachedTokens: cache.readTokens,
    cacheWriteTokens: cache.writeTokens,
    caching: cache.enabled,
    cache,
    finish,
    costUsd,
    cacheCostUsd: covered ? 0 : cacheCostUsd,
    moderationUsd: input.moderationUsd ?? 0,
    covered,
    provider: input.route?.provider.slug,
  };
}

const oneLine = (text: string, max: number): string => text.replace(/\s+/g, ' ').trim().slice(0, max);

function replyText(subject: string, results: ToolResult[], earlier: string[]): string {
  let text = `Sandbox reply to: "${subject}".`;
  if (earlier.length > 0)
    text += ` Earlier in this conversation you wrote: ${earlier.map((t) => `"${oneLine(t, 80)}"`).join('; ')}.`;
  if (results.length > 0) {
    return `${text} ${results.map((r) => `Using the ${r.name} result: ${oneLine(r.content, 500)}`).join(' ')}`;
  }
  return (
    `${text} This answer comes from the ${SANDBOX_WORD} sandbox, which ` +
    'gives the same words to the same request, so tests and offline agents can rely on it.'
  );
}

/** Reasoning grows with the effort asked for. */
function reasoningFor(subject: string, effort: Effort | undefined): string {
  const opening = `The user wrote "${subject.slice(0, 80)}".`;
  if (effort === 'minimal' || effort === 'low') return `${opening} Answer directly.`;
  const plan = `${opening} A sandbox reply is fixed, so the plan is simple: restate the request, then give the deterministic answer.`;
  return effort === 'high' || effort === 'xhigh' ? `${plan} Check it once more against the request.` : plan;
}

/** Charges the reply, then records what it changed: the prompt cache and the key's recent models. */
export function settle(ctx: SandboxContext, record: KeyRecord, gen: Generation): void {
  charge(ctx, record, gen.costUsd);
  if (gen.covered) {
    const operations = ctx.state.collection<number>('subscription.operations');
    operations.set(record.key, (operations.get(record.key) ?? 0) + 1);
  }
  commitCache(ctx, gen.cache);
  ctx.state.noteModelUse(record, gen.modelId);
}

/** The `x_<word>_pricing` object (spec 2 §6); the amount includes a moderation fee. */
export function pricingOf(gen: Generation): Record<string, unknown> {
  const amount = roundUsd(gen.costUsd + gen.moderationUsd);
  return {
    amount,
    currency: 'USD',
    cost: amount,
    paymentSource: gen.covered ? 'subscription' : 'USD',
    inputTokens: gen.promptTokens,
    outputTokens: gen.completionTokens,
    ...(gen.caching ? { cacheCost: gen.cacheCostUsd } : {}),
    ...(gen.moderationUsd ? { moderationCost: gen.moderationUsd } : {}),
  };
}
