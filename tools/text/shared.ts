import { z } from 'zod';

/**
 * A chat message as agents write it; content blocks pass through for vision and tools. Loose, so a
 * tool loop's extra keys (`tool_calls`, `tool_call_id`, `cache_control`) ride along without costing
 * schema tokens; tools/text/conversation.ts checks them.
 */
export const Message = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  // Listed as "any" to keep tools/list small; checked here all the same.
  content: z
    .any()
    .refine(
      (value) => value === undefined || value === null || typeof value === 'string' || Array.isArray(value),
      'must be text or an array of content blocks',
    )
    .optional()
    .describe('text or content blocks'),
});
export type Message = z.infer<typeof Message>;

/** `prompt` is a shortcut for one user message; `messages` is the whole conversation. */
export const Conversation = {
  model: z.string().min(1),
  prompt: z.string().optional(),
  messages: z.array(Message).optional(),
  system: z.string().optional(),
};
