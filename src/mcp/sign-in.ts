import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { SignInPrompt } from '../credentials.js';
import type { Progress } from './define-tool.js';

/**
 * How a tool call reaches the person during sign-in: URL elicitation (MCP 2025-11) when the
 * client declared it, so the link is shown to the person and never enters the model's context.
 */
export function signInPrompt(
  server: Server,
  call: { signal: AbortSignal; requestId: RequestId },
  progress: Progress,
): SignInPrompt {
  const canElicitUrl = server.getClientCapabilities()?.elicitation?.url !== undefined;
  return {
    signal: call.signal,
    progress: (message) => progress.report(message),
    showUrl: canElicitUrl
      ? async (message, url) => {
          const elicitationId = randomUUID();
          const result = await server.elicitInput(
            { mode: 'url', message, url, elicitationId },
            { relatedRequestId: call.requestId, signal: call.signal, timeout: 120_000 },
          );
          return {
            action: result.action,
            completed: () =>
              server.createElicitationCompletionNotifier(elicitationId, {
                relatedRequestId: call.requestId,
              })(),
          };
        }
      : undefined,
  };
}
