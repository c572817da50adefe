import { PRICING_FIELD } from '../constants.js';
import type { SseFrame } from '../sse.js';
import { type Generation, pricingOf } from '../text/generate.js';
import { chunkText } from '../text/tokens.js';

export interface StoredResponse {
  owner: string;
  body: Record<string, unknown>;
  /** Input and output text so far, for `previous_response_id`. */
  transcript: string;
}

interface Ids {
  message: string;
  reasoning: string;
}

const idsOf = (id: string): Ids => ({ message: `msg_${id.slice(5)}`, reasoning: `rs_${id.slice(5)}` });

export function responseObject(
  id: string,
  created: number,
  gen: Generation,
  previousId: string | undefined,
): Record<string, unknown> {
  const ids = idsOf(id);
  const output: unknown[] = [];
  if (gen.reasoning) output.push(reasoningItem(ids, gen.reasoning));
  output.push(messageItem(ids, gen.text, 'completed'));
  const incomplete = gen.finish === 'length';
  return {
    id,
    object: 'response',
    created_at: created,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    model: gen.modelId,
    previous_response_id: previousId ?? null,
    output,
    output_text: gen.text,
    usage: {
      input_tokens: gen.promptTokens,
      input_tokens_details: { cached_tokens: gen.cachedTokens },
      output_tokens: gen.completionTokens,
      output_tokens_details: { reasoning_tokens: gen.reasoningTokens },
      total_tokens: gen.promptTokens + gen.completionTokens,
    },
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
    push('response.reasoning_summary_part.added', {
      item_id: ids.reasoning,
      output_index: outputIndex,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    });
    for (const delta of chunkText(gen.reasoning)) {
      push('response.reasoning_summary_text.delta', {
        item_id: ids.reasoning,
        output_index: outputIndex,
        summary_index: 0,
        delta,
      });
    }
    push('response.reasoning_summary_text.done', {
      item_id: ids.reasoning,
      output_index: outputIndex,
      summary_index: 0,
      text: gen.reasoning,
    });
    push('response.output_item.done', { output_index: outputIndex, item });
    outputIndex += 1;
  }
  const where = { item_id: ids.message, output_index: outputIndex, content_index: 0 };
  push('response.output_item.added', {
    output_index: outputIndex,
    item: { ...messageItem(ids, '', 'in_progress'), content: [] },
  });
  push('response.content_part.added', { ...where, part: { type: 'output_text', text: '', annotations: [] } });
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
  push(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  frames.push({ data: '[DONE]' });
  return frames;
}
