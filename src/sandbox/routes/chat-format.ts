import { PRICING_FIELD } from '../constants.js';
import type { SseFrame } from '../sse.js';
import { type Generation, pricingOf } from '../text/generate.js';
import { chunkText } from '../text/tokens.js';
import { argumentPieces } from '../text/tools.js';

/** Chat-completions replies and stream chunks (spec 2 §4.2, §6). */
export interface ChatReply {
  id: string;
  created: number;
  gen: Generation;
  /** The `omitUsage` fault: no usage anywhere, pricing kept. */
  omitUsage: boolean;
}

const toolCallId = (replyId: string, index: number): string =>
  `call_${replyId.replace(/^chatcmpl-/, '')}_${index}`;

export function chatUsage(gen: Generation): Record<string, unknown> {
  return {
    prompt_tokens: gen.promptTokens,
    completion_tokens: gen.completionTokens,
    total_tokens: gen.promptTokens + gen.completionTokens,
    prompt_tokens_details: { cached_tokens: gen.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: gen.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
    ...(gen.caching
      ? { cache_creation_input_tokens: gen.cacheWriteTokens, cache_read_input_tokens: gen.cachedTokens }
      : {}),
  };
}

function toolCalls(reply: ChatReply) {
  return reply.gen.toolCalls.map((call, i) => ({
    id: toolCallId(reply.id, i),
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
}

export function completion(reply: ChatReply): Record<string, unknown> {
  const { gen } = reply;
  const calls = gen.toolCalls.length > 0;
  return {
    id: reply.id,
    object: 'chat.completion',
    created: reply.created,
    model: gen.modelId,
    system_fingerprint: 'fp_sandbox',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: calls ? null : gen.text,
          refusal: null,
          ...(gen.reasoning ? { reasoning: gen.reasoning } : {}),
          ...(calls ? { tool_calls: toolCalls(reply) } : {}),
        },
        logprobs: null,
        finish_reason: gen.finish,
      },
    ],
    ...(reply.omitUsage ? {} : { usage: chatUsage(gen) }),
    [PRICING_FIELD]: pricingOf(gen),
  };
}

export type ChunkFn = (choices: unknown[], extra?: Record<string, unknown>) => Record<string, unknown>;

export function chunkMaker(reply: ChatReply): ChunkFn {
  return (choices, extra = {}) => ({
    id: reply.id,
    object: 'chat.completion.chunk',
    created: reply.created,
    model: reply.gen.modelId,
    choices,
    ...extra,
  });
}

/**
 * Role chunk, reasoning deltas, content deltas or tool-call deltas (the id and name first, then the
 * arguments in pieces), the finish chunk, the usage chunk if asked, `[DONE]`.
 */
export function chatFrames(reply: ChatReply, includeUsage: boolean): SseFrame[] {
  const { gen } = reply;
  const chunk = chunkMaker(reply);
  const delta = (d: Record<string, unknown>) => chunk([{ index: 0, delta: d, finish_reason: null }]);
  const calls = toolCalls(reply);
  const frames: SseFrame[] = [{ data: delta({ role: 'assistant', content: calls.length > 0 ? null : '' }) }];
  for (const part of chunkText(gen.reasoning ?? '')) frames.push({ data: delta({ reasoning: part }) });
  for (const part of chunkText(gen.text)) frames.push({ data: delta({ content: part }) });
  calls.forEach((call, index) => {
    const head = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.function.name, arguments: '' },
    };
    frames.push({ data: delta({ tool_calls: [head] }) });
    for (const piece of argumentPieces(call.function.arguments)) {
      frames.push({ data: delta({ tool_calls: [{ index, function: { arguments: piece } }] }) });
    }
  });
  // Pricing rides on the last JSON chunk only: the usage chunk when there is one.
  const withUsage = includeUsage && !reply.omitUsage;
  const pricing = { [PRICING_FIELD]: pricingOf(gen) };
  frames.push({
    data: chunk([{ index: 0, delta: {}, finish_reason: gen.finish }], withUsage ? {} : pricing),
  });
  if (withUsage) frames.push({ data: chunk([], { usage: chatUsage(gen), ...pricing }) });
  frames.push({ data: '[DONE]' });
  return frames;
}
