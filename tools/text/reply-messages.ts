import { z } from 'zod';
import { readReply } from '../../src/replies/read.js';
import type { SseEvent } from '../../src/upstream/sse.js';
import {
  addPricing,
  addUsage,
  type ChatState,
  callAt,
  noteNotShown,
  type Usage,
  type UsageFields,
  usableOf,
} from './reply.js';

/**
 * Messages format (spec 2 §2.2, §4.1): a whole message, or its named events. A `tool_use` block
 * opens with its id and name; `input_json_delta` events carry its input as pieces of JSON text.
 */

/** Messages usage counts input without the cache: the input is all three added up. */
const messagesUsage = (u: UsageFields): Usage => {
  const fresh = u.input_tokens;
  const read = u.cache_read_input_tokens ?? undefined;
  const written = u.cache_creation_input_tokens ?? undefined;
  return {
    input_tokens: fresh === undefined ? undefined : fresh + (read ?? 0) + (written ?? 0),
    output_tokens: u.output_tokens,
    cached_tokens: read || undefined,
    cache_creation_tokens: written || undefined,
  };
};

const Block = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
});

const MessageEvent = z.looseObject({
  type: z.string(),
  index: z.number().optional(),
  message: z.looseObject({ model: z.string().optional(), usage: z.unknown().optional() }).optional(),
  content_block: Block.optional(),
  delta: z
    .looseObject({
      type: z.string().optional(),
      text: z.string().optional(),
      thinking: z.string().optional(),
      partial_json: z.string().optional(),
      stop_reason: z.string().nullish(),
    })
    .optional(),
  usage: z.unknown().optional(),
});

/** Block types this server reads; any other (new types appear) is kept out of the answer and named. */
const KNOWN_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);

export const MessageBody = z.looseObject({
  model: z.string().optional(),
  // Read block by block (the list rule): one odd block never sinks the answer.
  content: z.array(z.unknown()),
  stop_reason: z.string().nullish(),
  usage: z.unknown().optional(),
});

export function applyMessageEvent(state: ChatState, event: SseEvent): void {
  if (event.event === 'ping') return;
  const read = readReply(MessageEvent, JSON.parse(event.data));
  if (!read.success) throw read.error;
  const parsed = read.data;
  const key = String(parsed.index ?? 0);
  if (parsed.type === 'message_start' && parsed.message) {
    state.model ??= parsed.message.model;
    addUsage(state, parsed.message.usage, messagesUsage);
  } else if (
    parsed.type === 'content_block_start' &&
    !KNOWN_BLOCKS.has(parsed.content_block?.type ?? 'text')
  ) {
    noteNotShown(state, 'content block', parsed.content_block!.type);
  } else if (parsed.type === 'content_block_start' && parsed.content_block?.type === 'tool_use') {
    const call = callAt(state, key);
    call.id = parsed.content_block.id;
    call.name = parsed.content_block.name;
    // The opening input is usually `{}`; deltas, when they come, replace it.
    call.args = JSON.stringify(parsed.content_block.input ?? {});
  } else if (parsed.type === 'content_block_delta' && parsed.delta) {
    const d = parsed.delta;
    state.text += d.text ?? '';
    state.reasoning += d.thinking ?? '';
    if (d.partial_json !== undefined && state.calls.has(key)) {
      const call = callAt(state, key);
      if (!call.streamed) call.args = '';
      call.args += d.partial_json;
      call.streamed = true;
    }
  } else if (parsed.type === 'message_delta') {
    if (parsed.delta?.stop_reason) state.finish_reason = parsed.delta.stop_reason;
    addUsage(state, parsed.usage, messagesUsage);
  }
  addPricing(state, parsed);
}

export function applyMessage(state: ChatState, body: z.infer<typeof MessageBody>): void {
  state.model ??= body.model;
  usableOf(state, 'content block', Block, body.content).forEach((block, i) => {
    if (!KNOWN_BLOCKS.has(block.type)) noteNotShown(state, 'content block', block.type);
    if (block.type === 'text') state.text += block.text ?? '';
    if (block.type === 'thinking') state.reasoning += block.thinking ?? '';
    if (block.type === 'tool_use') {
      const call = callAt(state, String(i));
      call.id = block.id;
      call.name = block.name;
      call.args = JSON.stringify(block.input ?? {});
    }
  });
  state.finish_reason = body.stop_reason ?? undefined;
  addUsage(state, body.usage, messagesUsage);
  addPricing(state, body);
}

export const isMessagesTerminal = (event: SseEvent) =>
  event.event === 'message_stop' || event.data.includes('"message_stop"');
