import { z } from 'zod';

/** A chat message as agents write it; content blocks pass through for vision and tools. */
export const Message = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  // Listed as "any" to keep tools/list small; checked here all the same.
  content: z
    .any()
    .refine(
      (value) => typeof value === 'string' || Array.isArray(value),
      'must be text or an array of content blocks',
    )
    .describe('text or content blocks'),
});
export type Message = z.infer<typeof Message>;

/** `prompt` is a shortcut for one user message; `messages` is the whole conversation. */
export const Conversation = {
  model: z.string().min(1),
  prompt: z.string().optional().describe('one user message'),
  messages: z.array(Message).optional(),
  system: z.string().optional(),
};

export function conversation(args: { prompt?: string; messages?: Message[]; system?: string }): {
  system?: string;
  messages: Message[];
} {
  const messages = [...(args.messages ?? [])];
  if (args.prompt !== undefined) messages.push({ role: 'user', content: args.prompt });
  const systemParts = messages.filter((m) => m.role === 'system').map((m) => m.content);
  const system = [args.system, ...systemParts.filter((c): c is string => typeof c === 'string')]
    .filter(Boolean)
    .join('\n\n');
  return { system: system || undefined, messages: messages.filter((m) => m.role !== 'system') };
}
