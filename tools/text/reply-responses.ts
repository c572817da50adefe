import { z } from 'zod';
import { REPORT_UPSTREAM, UpstreamInvalidError } from '../../src/errors.js';
import { readReply } from '../../src/replies/read.js';
import type { SseEvent } from '../../src/upstream/sse.js';
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
 * Responses format (spec 2 §4.2, §6): a response object (also what a stored or background
 * response reads back as), or its typed events. A `function_call` output item is announced, its
 * argument text streams as `response.function_call_arguments.delta`, and `.done` repeats it whole:
 * the two must agree.
 */
const Part = z.looseObject({ type: z.string(), text: z.string().optional() });
const Item = z.looseObject({
  type: z.string(),
  id: z.string().optional(),
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  // Read part by part (the list rule): one odd part never sinks the item.
  content: z.array(z.unknown()).optional(),
  summary: z.array(z.looseObject({ text: z.string().optional() })).optional(),
});
type Item = z.infer<typeof Item>;

/** Output item and content part types this server reads; others (new types appear) are named, not shown. */
const KNOWN_ITEMS = new Set(['message', 'reasoning', 'function_call']);
const KNOWN_PARTS = new Set(['output_text']);

export const ResponseBody = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  status: z.string().optional(),
  output_text: z.string().nullish(),
  // Read item by item (the list rule): one odd item never sinks the answer.
  output: z.array(z.unknown()).nullish(),
  usage: z.unknown().optional(),
  incomplete_details: z.looseObject({ reason: z.string().optional() }).nullish(),
  error: z.looseObject({ message: z.string().optional(), code: z.string().nullish() }).nullish(),
});
export type ResponseBody = z.infer<typeof ResponseBody>;

const ResponseEvent = z.looseObject({
  type: z.string(),
  sequence_number: z.number().optional(),
  output_index: z.number().optional(),
  item_id: z.string().optional(),
  delta: z.string().optional(),
  arguments: z.string().optional(),
  item: Item.optional(),
  response: ResponseBody.optional(),
});

/** Typed events; `sequence_number` must increase, so a reordered or replayed stream is caught. */
export function applyResponseEvent(state: ChatState, event: SseEvent, requestId?: string): void {
  const read = readReply(ResponseEvent, JSON.parse(event.data));
  if (!read.success) throw read.error;
  const parsed = read.data;
  if (parsed.sequence_number !== undefined) {
    if (state.sequence !== undefined && parsed.sequence_number <= state.sequence) {
      throw new Error(`response stream out of order at sequence_number ${parsed.sequence_number}`);
    }
    state.sequence = parsed.sequence_number;
  }
  const type = parsed.type;
  const key = String(parsed.output_index ?? parsed.item_id ?? 0);
  if (type === 'response.output_text.delta') state.text += parsed.delta ?? '';
  else if (type.startsWith('response.reasoning') && type.endsWith('.delta'))
    state.reasoning += parsed.delta ?? '';
  else if (type === 'response.output_item.added' && !KNOWN_ITEMS.has(parsed.item?.type ?? 'message'))
    noteNotShown(state, 'output item', parsed.item!.type);
  else if (type === 'response.output_item.added' && parsed.item?.type === 'function_call') {
    const call = callAt(state, key);
    call.id = parsed.item.call_id;
    call.name = parsed.item.name;
    call.args = parsed.item.arguments ?? '';
  } else if (type === 'response.function_call_arguments.delta') {
    const call = callAt(state, key);
    call.args += parsed.delta ?? '';
    call.streamed = true;
  } else if (type === 'response.function_call_arguments.done' && parsed.arguments !== undefined) {
    const call = callAt(state, key);
    if (call.streamed && call.args !== parsed.arguments) {
      throw new UpstreamInvalidError(
        `The streamed arguments of tool call ${call.name ?? key} do not add up to the whole the platform sent after them.`,
        { requestId, fix: REPORT_UPSTREAM },
      );
    }
    call.args = parsed.arguments;
  } else if (parsed.response) {
    state.responseId ??= parsed.response.id;
    if (type === 'response.completed' || type === 'response.incomplete') finish(state, parsed.response);
  }
}

/** A whole response object (non-streamed, stored, or the terminal event's) into the state. */
export function applyResponse(state: ChatState, body: ResponseBody): void {
  state.responseId ??= body.id;
  const streamed = state.text !== '' || state.calls.size > 0;
  // A streamed answer already named what it left out; the whole response repeats those items.
  const output = streamed ? [] : usableOf(state, 'output item', Item, body.output);
  if (!streamed) {
    const texts = output.map((item) => (item.type === 'message' ? textOf(state, item) : '')).join('');
    state.text = body.output_text || texts;
    output.forEach((item, i) => {
      if (!KNOWN_ITEMS.has(item.type)) noteNotShown(state, 'output item', item.type);
      if (item.type !== 'function_call') return;
      const call = callAt(state, String(i));
      call.id = item.call_id;
      call.name = item.name;
      call.args = item.arguments ?? '';
    });
  }
  if (!state.reasoning)
    for (const item of streamed ? usableReasoning(body) : output)
      if (item.type === 'reasoning')
        state.reasoning += (item.summary ?? []).map((s) => s.text ?? '').join('');
  finish(state, body);
}

/** A message item's text; parts of another type are named, not shown. */
function textOf(state: ChatState, item: Item): string {
  let text = '';
  for (const part of usableOf(state, 'content part', Part, item.content)) {
    if (part.type === 'output_text') text += part.text ?? '';
    else if (!KNOWN_PARTS.has(part.type)) noteNotShown(state, 'content part', part.type);
  }
  return text;
}

/** The reasoning items of a response whose text was streamed (nothing named twice). */
const usableReasoning = (body: ResponseBody): Item[] =>
  (body.output ?? []).flatMap((raw) => {
    const parsed = readReply(Item, raw);
    return parsed.success && parsed.data.type === 'reasoning' ? [parsed.data] : [];
  });

function finish(state: ChatState, body: ResponseBody): void {
  state.model ??= body.model;
  state.status = body.status;
  state.finish_reason =
    body.status === 'completed' ? 'stop' : (body.incomplete_details?.reason ?? body.status);
  addUsage(state, body.usage, inclusiveUsage);
  addPricing(state, body);
}

export const isResponsesTerminal = (event: SseEvent) =>
  /"type"\s*:\s*"response\.(completed|incomplete)"/.test(event.data);
