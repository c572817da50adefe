import { createHash } from 'node:crypto';
import { inputRequired } from './input.js';
import type { Channel } from './sign-in.js';

const YES_NO = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Yes, do it', default: false } },
  required: ['confirm'],
};

/**
 * Asks the person (not the model) to confirm a destructive action through a form, when the client
 * can show one: a yes/no with the exact consequence in the message. A 2025 client is asked
 * directly; a 2026 call returns the question and runs again with the answer, so a tool asks
 * before it changes anything.
 */
export function confirmer(channel: Channel) {
  return async (message: string): Promise<'accepted' | 'declined' | 'unsupported'> => {
    if (!channel.elicitation.form) return 'unsupported';
    let answer: { action?: unknown; content?: { confirm?: unknown } } | undefined;
    if (channel.modern) {
      // One key per question, so a tool that confirms two things gets two answers.
      const key = `confirm_${createHash('sha256').update(message).digest('hex').slice(0, 12)}`;
      answer = channel.ask(key, inputRequired.elicit({ message, requestedSchema: YES_NO })) as typeof answer;
    } else {
      answer = await channel.ctx.mcpReq.elicitInput(
        { mode: 'form', message, requestedSchema: YES_NO },
        { signal: channel.ctx.mcpReq.signal, timeout: 300_000 },
      );
    }
    return answer?.action === 'accept' && answer.content?.confirm === true ? 'accepted' : 'declined';
  };
}
