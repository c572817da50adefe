import type { Batch } from './store.js';

/**
 * Inline results of one batch (`GET /api/beta/batches/{id}`; its shape is not shown in the spec).
 * Finished requests get one entry each: a response body in the batch's endpoint format, or an error.
 */
export function inlineResults(batch: Batch) {
  if (batch.status !== 'completed') return null;
  const { completed, failed } = batch.request_counts;
  const entries = [];
  for (let i = 1; i <= completed + failed; i += 1) {
    const customId = `request-${i}`;
    if (i > completed) {
      entries.push({
        custom_id: customId,
        response: null,
        error: { code: 'context_length_exceeded', message: 'The request is longer than the model context.' },
      });
      continue;
    }
    entries.push({
      custom_id: customId,
      response: { status_code: 200, body: resultBody(batch, i) },
      error: null,
    });
  }
  return entries;
}

function resultBody(batch: Batch, i: number) {
  const id = `${batch.id}-${i}`;
  const text = `Sandbox answer ${i} of ${batch.id}.`;
  const usage = { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 };
  if (batch.endpoint === '/v1/responses') {
    return {
      id: `resp_${id}`,
      object: 'response',
      created_at: batch.created_at,
      model: batch.model,
      status: 'completed',
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] },
      ],
      usage: { input_tokens: 120, output_tokens: 80, total_tokens: 200 },
    };
  }
  return {
    id: `chatcmpl_${id}`,
    object: 'chat.completion',
    created: batch.created_at,
    model: batch.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage,
  };
}
