import { describe, expect, it } from 'vitest';
import { emptyState, resultOf } from '../../../tools/text/reply.js';
import { applyChat } from '../../../tools/text/reply-chat.js';
import { applyMessageEvent } from '../../../tools/text/reply-messages.js';
import { applyResponseEvent } from '../../../tools/text/reply-responses.js';

// Issue 32 item 3, streamed: an event of a type this server does not know, or a choice it cannot
// read, is named once in the answer, never a broken stream.
const event = (data: unknown, name?: string) => ({
  data: JSON.stringify(data),
  ...(name ? { event: name } : {}),
});

describe('streamed replies keep their lists element by element', () => {
  it('chat chunks: an unreadable choice is named once, however many chunks carry it', () => {
    const state = emptyState();
    for (const text of ['Hel', 'lo'])
      applyChat(state, { choices: [{ index: 0, delta: { content: text } }, 'odd'] });
    const result = resultOf(state, 'req_1', 'm');
    expect(result.text).toBe('Hello');
    expect(result.not_usable).toMatch(/^choice #2 not usable \([^;]+\)$/);
  });

  it('messages events: a content block of an unknown type is named, not shown', () => {
    const state = emptyState();
    applyMessageEvent(
      state,
      event(
        { type: 'content_block_start', index: 0, content_block: { type: 'mystery_block' } },
        'content_block_start',
      ),
    );
    applyMessageEvent(
      state,
      event(
        { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
        'content_block_start',
      ),
    );
    applyMessageEvent(
      state,
      event(
        { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } },
        'content_block_delta',
      ),
    );
    const result = resultOf(state, 'req_1', 'm');
    expect(result.text).toBe('Hi');
    expect(result.not_usable).toBe('content block of type mystery_block not shown');
  });

  it('responses events: an output item of an unknown type is named, not shown', () => {
    const state = emptyState();
    applyResponseEvent(
      state,
      event({ type: 'response.output_item.added', output_index: 0, item: { type: 'mystery_call' } }),
    );
    applyResponseEvent(state, event({ type: 'response.output_text.delta', output_index: 1, delta: 'Hi' }));
    const result = resultOf(state, 'req_1', 'm');
    expect(result.text).toBe('Hi');
    expect(result.not_usable).toBe('output item of type mystery_call not shown');
  });
});
