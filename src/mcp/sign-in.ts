import { randomUUID } from 'node:crypto';
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { SignInPrompt } from '../credentials.js';
import type { Progress } from '../progress.js';
import { type Asker, inputRequired } from './input.js';

/** How this request can reach the person: its era, and whether its client shows URL elicitation. */
export interface Channel {
  server: Server;
  ctx: ServerContext;
  /** A 2026-07-28 request: questions go out as input_required and the call comes back. */
  modern: boolean;
  elicitation: { form: boolean; url: boolean };
  ask: Asker;
}

/**
 * How a tool call reaches the person during sign-in: the link as a URL elicitation when the client
 * can show one, so it goes to the person and never into the model's context. A 2025 client is
 * asked directly (and told when the sign-in completed); a 2026 client gets the link as
 * input_required and comes back with the person's answer, and the call then waits for approval.
 */
export function signInPrompt(channel: Channel, progress: Progress, pasted?: string): SignInPrompt {
  const { ctx } = channel;
  const prompt: SignInPrompt = {
    signal: ctx.mcpReq.signal,
    progress: (message) => progress.report(message),
    pasted,
  };
  if (channel.elicitation.form) prompt.askPaste = pasteAsker(channel);
  if (!channel.elicitation.url) return prompt;
  if (channel.modern) {
    prompt.showUrl = async (message, url) => {
      const answer = channel.ask('sign_in', inputRequired.elicitUrl({ message, url })) as {
        action?: unknown;
      };
      const action = answer?.action === 'accept' || answer?.action === 'decline' ? answer.action : 'cancel';
      return { action, completed: async () => {} };
    };
    return prompt;
  }
  prompt.showUrl = async (message, url) => {
    const elicitationId = randomUUID();
    const result = await ctx.mcpReq.elicitInput(
      { mode: 'url', message, url, elicitationId },
      { signal: ctx.mcpReq.signal, timeout: 120_000 },
    );
    return {
      action: result.action,
      completed: () =>
        channel.server.createElicitationCompletionNotifier(elicitationId, {
          relatedRequestId: ctx.mcpReq.id,
        })(),
    };
  };
  return prompt;
}

/** The one field of the paste form. */
const PASTE_FORM = {
  type: 'object' as const,
  properties: {
    callback_url: {
      type: 'string' as const,
      title: 'The address your browser ended on (or its code)',
      minLength: 1,
    },
  },
  required: ['callback_url'],
};

/**
 * Asks the person, by a form, for the address the browser ended on after approving, when it could
 * not reach this machine's loopback callback. A 2025 client is asked directly (and the question
 * withdrawn if the callback arrives first); a 2026 call returns the question and runs again with
 * the answer.
 */
function pasteAsker(channel: Channel): NonNullable<SignInPrompt['askPaste']> {
  return async (message, signal) => {
    const answer = (
      channel.modern
        ? channel.ask('sign_in_paste', inputRequired.elicit({ message, requestedSchema: PASTE_FORM }))
        : await channel.ctx.mcpReq.elicitInput(
            { mode: 'form', message, requestedSchema: PASTE_FORM },
            { signal, timeout: PASTE_WAIT_MS },
          )
    ) as { action?: unknown; content?: { callback_url?: unknown } } | undefined;
    const text = answer?.content?.callback_url;
    return answer?.action === 'accept' && typeof text === 'string' ? text : undefined;
  };
}

/** How long the form waits for the person to approve in the browser and paste the address. */
const PASTE_WAIT_MS = 300_000;
