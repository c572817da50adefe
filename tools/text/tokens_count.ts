import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { NumberLike } from '../../src/replies/number.js';
import { readConversation } from './conversation.js';
import { Conversation } from './shared.js';
import { messagesMessages } from './wire.js';

export default defineTool({
  name: 'tokens_count',
  title: 'Count tokens',
  description:
    'Count tokens of a prompt, text or conversation on a model before sending: fits the context window? cost? Free. Answer: chat.',
  toolset: 'text',
  credential: 'api_key',
  input: z.object(Conversation),
  output: z.object({ model: z.string(), input_tokens: z.number().int() }),
  nature: 'read',
  async run(args, { api }) {
    const conversation = readConversation(args);
    if (conversation.turns.length === 0) {
      throw new InputError('Nothing to count: give `prompt` or `messages`.', {
        fix: 'Pass prompt: "text to count".',
      });
    }
    const { data } = await api.request({
      method: 'POST',
      path: '/api/v1/messages/count_tokens',
      // The messages format's count route: a tool loop is written the way that format sends it.
      body: { model: args.model, ...messagesMessages(conversation).body },
      // The reply shape is not specified; the messages format's field is expected (a numeric string read).
      schema: z.union([
        z.looseObject({ input_tokens: NumberLike }),
        z.looseObject({ tokens: NumberLike }).transform((d) => ({ input_tokens: d.tokens })),
      ]),
    });
    return { model: args.model, input_tokens: data.input_tokens };
  },
  text: (r) => `${r.input_tokens} input tokens on ${r.model}`,
});
