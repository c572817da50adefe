import { describe, expect, it } from 'vitest';
import { emptyState, MAX_REASONING_CHARS, resultOf } from '../../../tools/text/reply.js';
import { applyChat } from '../../../tools/text/reply-chat.js';
import { applyMessageEvent } from '../../../tools/text/reply-messages.js';
import { applyResponseEvent } from '../../../tools/text/reply-responses.js';

/** Reading replies: tool-call arguments assembled exactly, raw when not JSON, reasoning capped. */
const chatDelta = (calls: unknown[]) => ({ model: 'm', choices: [{ delta: { tool_calls: calls } }] });

describe('tool calls in chat-completions chunks', () => {
  it('joins argument pieces by index, two calls interleaved', () => {
    const state = emptyState();
    applyChat(state, chatDelta([{ index: 0, id: 'call_a', function: { name: 'f', arguments: '' } }]));
    applyChat(state, chatDelta([{ index: 1, id: 'call_b', function: { name: 'g', arguments: '{"n":' } }]));
    applyChat(state, chatDelta([{ index: 0, function: { arguments: '{"q":"a b' } }]));
    applyChat(state, chatDelta([{ index: 1, function: { arguments: '2}' } }]));
    applyChat(state, chatDelta([{ index: 0, function: { arguments: ' c"}' } }]));
    expect(resultOf(state, 'req_1', 'm').tool_calls).toEqual([
      { id: 'call_a', name: 'f', arguments: { q: 'a b c' } },
      { id: 'call_b', name: 'g', arguments: { n: 2 } },
    ]);
  });

  it('hands arguments that are not JSON over raw, exactly as they came', () => {
    const state = emptyState();
    applyChat(state, chatDelta([{ index: 0, id: 'call_a', function: { name: 'f', arguments: '{"q": ' } }]));
    applyChat(state, chatDelta([{ index: 0, function: { arguments: 'unquoted}' } }]));
    expect(resultOf(state, undefined, 'm').tool_calls).toEqual([
      { id: 'call_a', name: 'f', raw: '{"q": unquoted}' },
    ]);
  });

  it('gives a tool call without an id one made from the request id, and says so (issue 32)', () => {
    const state = emptyState();
    applyChat(state, chatDelta([{ index: 0, function: { name: 'f', arguments: '{}' } }]));
    const result = resultOf(state, 'req_9', 'm');
    expect(result.tool_calls).toEqual([{ id: 'call_req_9_0', name: 'f', arguments: {} }]);
    expect(result.not_usable).toBe('tool call f came without an id: given call_req_9_0');
  });

  it('leaves out and names a tool call without a name: it cannot be made', () => {
    const state = emptyState();
    applyChat(state, chatDelta([{ index: 0, id: 'c1', function: { arguments: '{}' } }]));
    const result = resultOf(state, 'req_9', 'm');
    expect(result.tool_calls).toBeUndefined();
    expect(result.not_usable).toBe('tool call c1 not usable (it has no name)');
  });
});

describe('tool calls in messages events', () => {
  it('replaces the opening input with the input_json_delta pieces', () => {
    const state = emptyState();
    const event = (data: object) => ({
      event: String((data as { type: string }).type),
      data: JSON.stringify(data),
    });
    applyMessageEvent(
      state,
      event({
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
      }),
    );
    for (const piece of ['{"ci', 'ty": "Pa', 'ris"}'])
      applyMessageEvent(
        state,
        event({
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: piece },
        }),
      );
    expect(resultOf(state, undefined, 'm').tool_calls).toEqual([
      { id: 'toolu_1', name: 'f', arguments: { city: 'Paris' } },
    ]);
  });
});

describe('tool calls in responses events', () => {
  const event = (seq: number, data: object) => ({ data: JSON.stringify({ sequence_number: seq, ...data }) });

  it('checks the streamed pieces against the done event', () => {
    const state = emptyState();
    applyResponseEvent(
      state,
      event(1, {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '' },
      }),
    );
    applyResponseEvent(
      state,
      event(2, { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"a":' }),
    );
    applyResponseEvent(
      state,
      event(3, { type: 'response.function_call_arguments.delta', output_index: 0, delta: '1}' }),
    );
    applyResponseEvent(
      state,
      event(4, { type: 'response.function_call_arguments.done', output_index: 0, arguments: '{"a":1}' }),
    );
    expect(resultOf(state, undefined, 'm').tool_calls).toEqual([
      { id: 'call_1', name: 'f', arguments: { a: 1 } },
    ]);
    expect(() =>
      applyResponseEvent(
        state,
        event(5, { type: 'response.function_call_arguments.done', output_index: 0, arguments: '{"a":2}' }),
      ),
    ).toThrow(/do not add up/);
  });
});

describe('reasoning', () => {
  it('is returned apart and capped, keeping its end', () => {
    const state = emptyState();
    const long = `${'a'.repeat(MAX_REASONING_CHARS)}THE END`;
    applyChat(state, { choices: [{ delta: { reasoning: long, content: 'answer' } }] });
    const out = resultOf(state, undefined, 'm');
    expect(out.text).toBe('answer');
    expect(out.reasoning).toMatch(/^\[7 earlier characters of reasoning not shown\] …a+THE END$/);
  });
});
