import { PRICING_FIELD } from '../constants.js';
import type { SseFrame } from '../sse.js';
import { type Generation, pricingOf } from '../text/generate.js';
import { chunkText } from '../text/tokens.js';
import { argumentPieces } from '../text/tools.js';
import { sha256Hex } from '../util.js';

/** Messages-format replies and named stream events (spec 2 §2.2, §4.1). */
export interface MessageReply {
  id: string;
  gen: Generation;
  omitUsage: boolean;
}

function usage(gen: Generation, final: boolean): Record<string, unknown> {
  const oneHour = gen.cache.ttl === '1h';
  return {
    input_tokens: gen.promptTokens - gen.cachedTokens - gen.cacheWriteTokens,
    output_tokens: final ? gen.completionTokens : 1,
    cache_creation_input_tokens: gen.cacheWriteTokens,
    cache_read_input_tokens: gen.cachedTokens,
    cache_creation: {
      ephemeral_5m_input_tokens: oneHour ? 0 : gen.cacheWriteTokens,
      ephemeral_1h_input_tokens: oneHour ? gen.cacheWriteTokens : 0,
    },
    service_tier: 'standard',
  };
}

const STOP: Record<Generation['finish'], string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
};
const signatureOf = (gen: Generation) => `sbx-sig-${sha256Hex(gen.reasoning ?? '').slice(0, 32)}`;
const toolUseId = (replyId: string, index: number) => `toolu_${replyId.replace(/^msg_/, '')}_${index}`;

/** The input of a tool call as an object (the model's arguments always parse). */
function inputOf(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return {};
  }
}

export function message(reply: MessageReply): Record<string, unknown> {
  const { gen } = reply;
  const content: unknown[] = [];
  if (gen.reasoning) content.push({ type: 'thinking', thinking: gen.reasoning, signature: signatureOf(gen) });
  if (gen.text || gen.toolCalls.length === 0) content.push({ type: 'text', text: gen.text });
  gen.toolCalls.forEach((call, i) => {
    content.push({
      type: 'tool_use',
      id: toolUseId(reply.id, i),
      name: call.name,
      input: inputOf(call.arguments),
    });
  });
  return {
    ...envelope(reply),
    content,
    stop_reason: STOP[gen.finish],
    ...(reply.omitUsage ? {} : { usage: usage(gen, true) }),
    [PRICING_FIELD]: pricingOf(gen),
  };
}

const envelope = (reply: MessageReply) => ({
  id: reply.id,
  type: 'message',
  role: 'assistant',
  model: reply.gen.modelId,
  content: [] as unknown[],
  stop_reason: null as string | null,
  stop_sequence: null,
});

export function messageFrames(reply: MessageReply): SseFrame[] {
  const { gen } = reply;
  const frames: SseFrame[] = [];
  const push = (event: string, data: Record<string, unknown>) =>
    frames.push({ event, data: { type: event, ...data } });
  push('message_start', {
    message: { ...envelope(reply), ...(reply.omitUsage ? {} : { usage: usage(gen, false) }) },
  });
  let index = 0;
  if (gen.reasoning) {
    push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const part of chunkText(gen.reasoning)) {
      push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: part } });
    }
    push('content_block_delta', { index, delta: { type: 'signature_delta', signature: signatureOf(gen) } });
    push('content_block_stop', { index });
    index += 1;
  }
  if (gen.text || gen.toolCalls.length === 0) {
    push('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const part of chunkText(gen.text))
      push('content_block_delta', { index, delta: { type: 'text_delta', text: part } });
    push('content_block_stop', { index });
    index += 1;
  }
  gen.toolCalls.forEach((call, i) => {
    const block = { type: 'tool_use', id: toolUseId(reply.id, i), name: call.name, input: {} };
    push('content_block_start', { index, content_block: block });
    push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const piece of argumentPieces(call.arguments)) {
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    push('content_block_stop', { index });
    index += 1;
  });
  push('message_delta', {
    delta: { stop_reason: STOP[gen.finish], stop_sequence: null },
    ...(reply.omitUsage ? {} : { usage: { output_tokens: gen.completionTokens } }),
    [PRICING_FIELD]: pricingOf(gen),
  });
  push('message_stop', {});
  return frames;
}
