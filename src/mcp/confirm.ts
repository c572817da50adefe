import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * Asks the person (not the model) to confirm a destructive action through form elicitation, when
 * the client can show a form: a yes/no with the exact consequence in the message.
 */
export function confirmer(
  server: Server,
  call: { signal: AbortSignal; requestId: RequestId },
): (message: string) => Promise<'accepted' | 'declined' | 'unsupported'> {
  return async (message) => {
    const elicitation = server.getClientCapabilities()?.elicitation;
    // An empty elicitation capability means forms (2025-06-18); later clients name form and url.
    const canAsk =
      elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
    if (!canAsk) return 'unsupported';
    const result = await server.elicitInput(
      {
        mode: 'form',
        message,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Yes, do it', default: false } },
          required: ['confirm'],
        },
      },
      { relatedRequestId: call.requestId, signal: call.signal, timeout: 300_000 },
    );
    return result.action === 'accept' && result.content?.confirm === true ? 'accepted' : 'declined';
  };
}
