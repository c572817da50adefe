import { z } from 'zod';
import { readPricing } from '../../src/http/pricing.js';
import type { SseEvent } from '../../src/http/sse.js';

/** What every format is reduced to: the answer, its reasoning, why it stopped, usage and cost. */
export interface ChatState {
  text: string;
  reasoning: string;
  finish_reason?: string;
  model?: string;
  usage?: { input_tokens?: number; output_tokens?: number; cached_tokens?: number };
  cost?: { amount: number; currency: string };
}

export function emptyState(): ChatState {
  return { text: '', reasoning: '' };
}

const Usage = z.looseObject({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  total_tokens: z.number().optional(),
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().optional() }).nullish(),
  cache_read_input_tokens: z.number().nullish(),
});

function applyUsage(state: ChatState, raw: unknown): void {
  const usage = Usage.safeParse(raw);
  if (!usage.success) return;
  const u = usage.data;
  const input = u.prompt_tokens ?? u.input_tokens ?? state.usage?.input_tokens;
  const output = u.completion_tokens ?? u.output_tokens ?? state.usage?.output_tokens;
  const cached = u.prompt_tokens_details?.cached_tokens ?? u.cache_read_input_tokens ?? undefined;
  state.usage = {
    input_tokens: input,
    output_tokens: output,
    ...(cached ? { cached_tokens: cached } : {}),
  };
}

function applyPricing(state: ChatState, body: unknown): void {
  const pricing = readPricing(body);
  const amount = pricing?.cost ?? pricing?.amount;
  if (amount !== undefined) state.cost = { amount, currency: pricing?.currency ?? 'USD' };
}

// ---- chat completions -------------------------------------------------------------------

// Stream chunks are many: plain (stripping) objects parse on zod's fast path, and the pricing
// extension is read from the raw chunk, so nothing needed is stripped away.
const ChatPart = z.object({
  content: z.string().nullish(),
  reasoning: z.string().nullish(),
  reasoning_content: z.string().nullish(),
});
const ChatChoice = z.object({
  delta: ChatPart.optional(),
  message: ChatPart.optional(),
  text: z.string().optional(),
  finish_reason: z.string().nullish(),
});
const ChatChunk = z.object({
  model: z.string().optional(),
  choices: z.array(ChatChoice),
  usage: z.unknown().optional(),
});
/** A whole chat.completion (or legacy completion) as the boundary validates it. */
export const ChatBody = z.looseObject(ChatChunk.shape);

/** One chat.completion.chunk or a whole chat.completion (or legacy completion) into the state. */
export function applyChat(state: ChatState, raw: unknown): void {
  const body = ChatChunk.parse(raw);
  state.model ??= body.model;
  for (const choice of body.choices) {
    const part = choice.delta ?? choice.message;
    state.text += part?.content ?? choice.text ?? '';
    state.reasoning += part?.reasoning ?? part?.reasoning_content ?? '';
    if (choice.finish_reason) state.finish_reason = choice.finish_reason;
  }
  if (body.usage) applyUsage(state, body.usage);
  applyPricing(state, raw);
}

// ---- messages ---------------------------------------------------------------------------

const MessageEvent = z.looseObject({
  type: z.string(),
  message: z.looseObject({ model: z.string().optional(), usage: z.unknown().optional() }).optional(),
  delta: z
    .looseObject({
      type: z.string().optional(),
      text: z.string().optional(),
      thinking: z.string().optional(),
      stop_reason: z.string().nullish(),
    })
    .optional(),
  usage: z.unknown().optional(),
});
export const MessageBody = z.looseObject({
  model: z.string().optional(),
  content: z.array(
    z.looseObject({ type: z.string(), text: z.string().optional(), thinking: z.string().optional() }),
  ),
  stop_reason: z.string().nullish(),
  usage: z.unknown().optional(),
});

export function applyMessageEvent(state: ChatState, event: SseEvent): void {
  if (event.event === 'ping') return;
  const parsed = MessageEvent.parse(JSON.parse(event.data));
  if (parsed.type === 'message_start' && parsed.message) {
    state.model ??= parsed.message.model;
    applyUsage(state, parsed.message.usage);
  } else if (parsed.type === 'content_block_delta' && parsed.delta) {
    state.text += parsed.delta.text ?? '';
    state.reasoning += parsed.delta.thinking ?? '';
  } else if (parsed.type === 'message_delta') {
    if (parsed.delta?.stop_reason) state.finish_reason = parsed.delta.stop_reason;
    applyUsage(state, { ...state.usage, ...(parsed.usage as object) });
  }
  applyPricing(state, parsed);
}

export function applyMessage(state: ChatState, body: z.infer<typeof MessageBody>): void {
  state.model ??= body.model;
  for (const block of body.content) {
    if (block.type === 'text') state.text += block.text ?? '';
    if (block.type === 'thinking') state.reasoning += block.thinking ?? '';
  }
  state.finish_reason = body.stop_reason ?? undefined;
  applyUsage(state, body.usage);
  applyPricing(state, body);
}

// ---- responses --------------------------------------------------------------------------

export const ResponseBody = z.looseObject({
  model: z.string().optional(),
  status: z.string().optional(),
  output_text: z.string().optional(),
  output: z
    .array(
      z.looseObject({
        type: z.string(),
        content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).optional(),
        summary: z.array(z.looseObject({ text: z.string().optional() })).optional(),
      }),
    )
    .optional(),
  usage: z.unknown().optional(),
  incomplete_details: z.looseObject({ reason: z.string().optional() }).nullish(),
});
const ResponseEvent = z.looseObject({
  type: z.string(),
  sequence_number: z.number().optional(),
  delta: z.string().optional(),
  response: ResponseBody.optional(),
});

/** Typed events; `sequence_number` must increase, so a reordered or replayed stream is caught. */
export function applyResponseEvent(state: ChatState & { sequence?: number }, event: SseEvent): void {
  const parsed = ResponseEvent.parse(JSON.parse(event.data));
  if (parsed.sequence_number !== undefined) {
    if (state.sequence !== undefined && parsed.sequence_number <= state.sequence) {
      throw new Error(`response stream out of order at sequence_number ${parsed.sequence_number}`);
    }
    state.sequence = parsed.sequence_number;
  }
  if (parsed.type === 'response.output_text.delta') state.text += parsed.delta ?? '';
  else if (parsed.type.startsWith('response.reasoning') && parsed.type.endsWith('.delta'))
    state.reasoning += parsed.delta ?? '';
  else if (
    (parsed.type === 'response.completed' || parsed.type === 'response.incomplete') &&
    parsed.response
  ) {
    state.model ??= parsed.response.model;
    state.finish_reason =
      parsed.type === 'response.completed'
        ? 'stop'
        : (parsed.response.incomplete_details?.reason ?? 'incomplete');
    applyUsage(state, parsed.response.usage);
    applyPricing(state, parsed.response);
  }
}

export function applyResponse(state: ChatState, body: z.infer<typeof ResponseBody>): void {
  state.model ??= body.model;
  if (body.output_text !== undefined) state.text = body.output_text;
  else {
    for (const item of body.output ?? []) {
      for (const part of item.content ?? []) if (part.type === 'output_text') state.text += part.text ?? '';
    }
  }
  for (const item of body.output ?? []) {
    if (item.type === 'reasoning') state.reasoning += (item.summary ?? []).map((s) => s.text ?? '').join('');
  }
  state.finish_reason =
    body.status === 'completed' ? 'stop' : (body.incomplete_details?.reason ?? body.status);
  applyUsage(state, body.usage);
  applyPricing(state, body);
}

export const isMessagesTerminal = (event: SseEvent) =>
  event.event === 'message_stop' || event.data.includes('"message_stop"');
export const isResponsesTerminal = (event: SseEvent) =>
  /"type"\s*:\s*"response\.(completed|incomplete)"/.test(event.data);
