import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { Conversation, conversation } from './shared.js';

export default defineTool({
  name: 'tokens_count',
  title: 'Count tokens',
  description:
    'Estimate the input tokens a conversation costs on a model, before sending it with chat. Free.',
  toolset: 'text',
  credential: 'api_key',
  input: z.object(Conversation),
  output: z.object({ model: z.string(), input_tokens: z.number().int() }),
  nature: 'read',
  async run(args, { api }) {
    const { system, messages } = conversation(args);
    if (messages.length === 0) {
      throw new InputError('Nothing to count: give `prompt` or `messages`.', {
        fix: 'Pass prompt: "text to count".',
      });
    }
    const { data } = await api.request({
      method: 'POST',
      path: '/api/v1/messages/count_tokens',
      body: { model: args.model, system, messages },
      // The reply shape is not specified; the messages format's field is expected.
      schema: z.union([
        z.looseObject({ input_tokens: z.number() }),
        z.looseObject({ tokens: z.number() }).transform((d) => ({ input_tokens: d.tokens })),
      ]),
    });
    return { model: args.model, input_tokens: data.input_tokens };
  },
  text: (r) => `${r.input_tokens} input tokens on ${r.model}`,
});
