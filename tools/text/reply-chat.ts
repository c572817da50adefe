import { z } from 'zod';
import { readReply } from '../../src/replies/read.js';
import {
  addPricing,
  addUsage,
  type ChatState,
  callAt,
  inclusiveUsage,
  noteNotShown,
  usableOf,
} from './reply.js';

/**
 * Chat completions and completions (spec 2 §4.2, §6): a whole `chat.completion` / `text_completion`,
 * or one `chat.completion.chunk`. Tool calls arrive as `tool_calls[]` deltas keyed by `index`: the
 * first carries the id and name, the rest pieces of the argument text, joined here in order.
 */

// Stream chunks are many: plain (stripping) objects parse on zod's fast path, and the pricing
// extension is read from the raw chunk, so nothing needed is stripped away.
const CallDelta = z.object({
  index: z.number().optional(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});
const ChatPart = z.object({
  content: z.string().nullish(),
  reasoning: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  // Read call by call (the list rule): one odd call never sinks the answer.
  tool_calls: z.array(z.unknown()).nullish(),
});
const ChatChoice = z.object({
  delta: ChatPart.optional(),
  message: ChatPart.optional(),
  text: z.string().nullish(),
  finish_reason: z.string().nullish(),
});
const ChatChunk = z.object({
  model: z.string().optional(),
  // Read choice by choice: one odd choice never sinks the others.
  choices: z.array(z.unknown()),
  usage: z.unknown().optional(),
});
/** A whole chat.completion (or completion) as the boundary validates it. */
export const ChatBody = z.looseObject(ChatChunk.shape);

/** One stream chunk into the state. */
export function applyChat(state: ChatState, raw: unknown): void {
  // The chunk schema strips: the pricing extension is read from the raw chunk.
  const parsed = readReply(ChatChunk, raw);
  if (!parsed.success) throw parsed.error;
  applyChatBody(state, parsed.data, raw);
}

/**
 * A reply already validated (ChatBody at the boundary keeps every key, so the pricing extension
 * is read from it) into the state: not parsed a second time.
 */
export function applyChatBody(state: ChatState, body: z.infer<typeof ChatChunk>, raw: unknown = body): void {
  state.model ??= body.model;
  for (const choice of usableOf(state, 'choice', ChatChoice, body.choices, ['index'])) {
    const part = choice.delta ?? choice.message;
    state.text += part?.content ?? choice.text ?? '';
    state.reasoning += part?.reasoning ?? part?.reasoning_content ?? '';
    usableOf(state, 'tool call', CallDelta, part?.tool_calls).forEach((delta, position) => {
      const call = callAt(state, String(delta.index ?? position));
      // A call of another kind than a function (a new type) is not one this answer can make.
      if (delta.type && delta.type !== 'function') {
        call.hidden = true;
        noteNotShown(state, 'tool call', delta.type);
      }
      call.id ||= delta.id ?? undefined;
      call.name ||= delta.function?.name ?? undefined;
      const piece = delta.function?.arguments;
      if (piece) {
        call.args += piece;
        call.streamed = true;
      }
    });
    if (choice.finish_reason) state.finish_reason = choice.finish_reason;
  }
  addUsage(state, body.usage, inclusiveUsage);
  addPricing(state, raw);
}
