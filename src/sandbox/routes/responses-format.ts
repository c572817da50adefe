import { PRICING_FIELD } from '../constants.js';
import type { SseFrame } from '../sse.js';
import { type Generation, pricingOf } from '../text/generate.js';
import { chunkText } from '../text/tokens.js';
import { argumentPieces } from '../text/tools.js';

/** Responses-format objects and stream events (spec 2 §4.2, §6). */
export interface ResponseMeta {
  id: string;
  created: number;
  previousId: string | undefined;
  store: boolean;
  background: boolean;
  /** Unix seconds the stored response expires at; null when not stored. */
  expiresAt: number | null;
  omitUsage: boolean;
}

interface Ids {
  message: string;
  reasoning: string;
}

const suffixOf = (id: string) => id.replace(/^resp_/, '');
const idsOf = (id: string): Ids => ({ message: `msg_${suffixOf(id)}`, reasoning: `rs_${suffixOf(id)}` });
export const callIdOf = (id: string, index: number): string => `call_${suffixOf(id)}_${index}`;

function usageOf(gen: Generation): Record<string, unknown> {
  return {
    input_tokens: gen.promptTokens,
    input_tokens_details: { cached_tokens: gen.cachedTokens },
    output_tokens: gen.completionTokens,
    output_tokens_details: { reasoning_tokens: gen.reasoningTokens },
    total_tokens: gen.promptTokens + gen.completionTokens,
    ...(gen.caching
      ? { cache_creation_input_tokens: gen.cacheWriteTokens, cache_read_input_tokens: gen.cachedTokens }
      : {}),
  };
}

const functionCalls = (id: string, gen: Generation) =>
  gen.toolCalls.map((call, i) => ({
    id: `fc_${suffixOf(id)}_${i}`,
    type: 'function_call',
    status: 'completed',
    call_id: callIdOf(id, i),
    name: call.name,
    arguments: call.arguments,
  }));

export function responseObject(meta: ResponseMeta, gen: Generation): Record<string, unknown> {
  const ids = idsOf(meta.id);
  const output: unknown[] = [];
  if (gen.reasoning) output.push(reasoningItem(ids, gen.reasoning));
  if (gen.toolCalls.length === 0) output.push(messageItem(ids, gen.text, 'completed'));
  output.push(...functionCalls(meta.id, gen));
  const incomplete = gen.finish === 'length';
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.created,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    model: gen.modelId,
    previous_response_id: meta.previousId ?? null,
    store: meta.store,
    background: meta.background,
    expires_at: meta.expiresAt,
    output,
    output_text: gen.text,
    usage: meta.omitUsage ? null : usageOf(gen),
    [PRICING_FIELD]: pricingOf(gen),
  };
}

const reasoningItem = (ids: Ids, text: string) => ({
  id: ids.reasoning,
  type: 'reasoning',
  summary: [{ type: 'summary_text', text }],
});

const messageItem = (ids: Ids, text: string, status: string) => ({
  id: ids.message,
  type: 'message',
  status,
  role: 'assistant',
  content: text || status === 'completed' ? [{ type: 'output_text', text, annotations: [] }] : [],
});

/** The event sequence of a responses stream; each event carries an increasing `sequence_number`. */
export function responseFrames(final: Record<string, unknown>, gen: Generation): SseFrame[] {
  const id = String(final.id);
  const ids = idsOf(id);
  const frames: SseFrame[] = [];
  const push = (type: string, data: Record<string, unknown>) =>
    frames.push({ data: { type, sequence_number: frames.length, ...data } });
  const { [PRICING_FIELD]: _pricing, ...rest } = final;
  const pending = {
    ...rest,
    status: 'in_progress',
    incomplete_details: null,
    output: [],
    output_text: '',
    usage: null,
  };
  push('response.created', { response: pending });
  push('response.in_progress', { response: pending });
  let outputIndex = 0;
  if (gen.reasoning) {
    const item = reasoningItem(ids, gen.reasoning);
    push('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } });
    const where = { item_id: ids.reasoning, output_index: outputIndex, summary_index: 0 };
    push('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } });
    for (const delta of chunkText(gen.reasoning))
      push('response.reasoning_summary_text.delta', { ...where, delta });
    push('response.reasoning_summary_text.done', { ...where, text: gen.reasoning });
    push('response.output_item.done', { output_index: outputIndex, item });
    outputIndex += 1;
  }
  if (gen.toolCalls.length === 0) {
    const where = { item_id: ids.message, output_index: outputIndex, content_index: 0 };
    push('response.output_item.added', {
      output_index: outputIndex,
      item: { ...messageItem(ids, '', 'in_progress'), content: [] },
    });
    push('response.content_part.added', {
      ...where,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    for (const delta of chunkText(gen.text)) push('response.output_text.delta', { ...where, delta });
    push('response.output_text.done', { ...where, text: gen.text });
    push('response.content_part.done', {
      ...where,
      part: { type: 'output_text', text: gen.text, annotations: [] },
    });
    push('response.output_item.done', {
      output_index: outputIndex,
      item: messageItem(ids, gen.text, 'completed'),
    });
    outputIndex += 1;
  }
  for (const call of functionCalls(id, gen)) {
    const where = { item_id: call.id, output_index: outputIndex };
    push('response.output_item.added', {
      output_index: outputIndex,
      item: { ...call, status: 'in_progress', arguments: '' },
    });
    for (const delta of argumentPieces(call.arguments))
      push('response.function_call_arguments.delta', { ...where, delta });
    push('response.function_call_arguments.done', { ...where, arguments: call.arguments });
    push('response.output_item.done', { output_index: outputIndex, item: call });
    outputIndex += 1;
  }
  push(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  frames.push({ data: '[DONE]' });
  return frames;
}
