import { type JSONRPCMessage, parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { isRecord } from '../../../lang.js';
import { type Store, storeKey } from '../../../store/store.js';

/** Where a client's answers to server requests are announced to every replica. */
const CLIENT_ANSWERS = storeKey('client-answers');

/**
 * A 2025 client answers the server's requests (an elicitation, a roots list) with a POST of
 * JSON-RPC responses, which a load balancer may send to any replica. The replica that gets it
 * announces it; the one whose server asked takes it. Only the session's owner reaches this.
 */
export function isAnswers(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return (
    messages.length > 0 &&
    messages.every(
      (message) =>
        isRecord(message) &&
        'id' in message &&
        ('result' in message || 'error' in message) &&
        !('method' in message),
    )
  );
}

export async function announceAnswers(store: Store, session: string, body: unknown): Promise<void> {
  const messages = Array.isArray(body) ? body : [body];
  await store.publish(CLIENT_ANSWERS, JSON.stringify({ session, messages }));
}

/** Calls `listener` with every answer any replica announces. */
export function onAnswers(
  store: Store,
  listener: (session: string, messages: JSONRPCMessage[]) => void,
): Promise<() => Promise<void>> {
  return store.subscribe(CLIENT_ANSWERS, (text) => {
    try {
      const value: unknown = JSON.parse(text);
      if (!isRecord(value) || typeof value.session !== 'string' || !Array.isArray(value.messages)) return;
      listener(
        value.session,
        value.messages.map((message) => parseJSONRPCMessage(message)),
      );
    } catch {
      // Not an answer of ours: ignored.
    }
  });
}
