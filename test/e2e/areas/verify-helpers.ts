/**
 * For tests of enclave verification: a tool context's HTTP side built from the real client (what
 * `chat` hands to verifyReply), and chats sent with `capture: true` to the sandbox's enclave models.
 */
import { z } from 'zod';
import type { Target } from '../../../src/context.js';
import { StaticCredentials } from '../../../src/credentials.js';
import { createLogger } from '../../../src/log.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import type { CapturedExchange } from '../../../src/upstream/capture.js';
import { type Api, HttpClient } from '../../../src/upstream/client.js';
import { isMessagesTerminal } from '../../../tools/text/reply-messages.js';
import { isResponsesTerminal } from '../../../tools/text/reply-responses.js';

export interface VerifyContext {
  api: Api;
  credentials: StaticCredentials;
  target: Target;
}

/** The part of a ToolContext that verification uses, for `key` (the demo key: the harness's tenant). */
export function contextFor(
  sandbox: Sandbox,
  key = sandbox.demoKey,
): { ctx: VerifyContext; close(): Promise<void> } {
  const http = new HttpClient({
    baseUrl: sandbox.url,
    timeoutMs: 10_000,
    retry: { maxRetries: 0 },
    userAgent: 'orbit-verify-test',
  });
  const credentials = new StaticCredentials([{ kind: 'api_key', value: key, source: 'sandbox' }]);
  const api = http.api({ credentials, signal: new AbortController().signal, log: createLogger('silent') });
  const target: Target = {
    kind: 'sandbox',
    baseUrl: sandbox.url,
    demoKey: sandbox.demoKey,
    teeRootsPath: sandbox.teeRootsPath,
  };
  return { ctx: { api, credentials, target }, close: () => http.close() };
}

export type Format = 'chat' | 'messages' | 'responses';

const PATHS: Record<Format, string> = {
  chat: '/api/v1/chat/completions',
  messages: '/api/v1/messages',
  responses: '/api/v1/responses',
};

export interface CapturedChat {
  requestId: string | undefined;
  captured: CapturedExchange;
  /** The body as sent, to compare with what the sandbox saw. */
  body: Record<string, unknown>;
}

/** One enclave chat in any format, streamed or not, with the exact bytes kept. */
export async function capturedChat(
  api: Api,
  options: { model: string; stream: boolean; format?: Format; prompt?: string },
): Promise<CapturedChat> {
  const format = options.format ?? 'chat';
  const content = options.prompt ?? 'Tell me a secret, politely.';
  const messages = [{ role: 'user', content }];
  const body: Record<string, unknown> =
    format === 'responses'
      ? { model: options.model, stream: options.stream, input: messages }
      : format === 'messages'
        ? { model: options.model, stream: options.stream, messages, max_tokens: 256 }
        : { model: options.model, stream: options.stream, messages };
  const path = PATHS[format];
  if (!options.stream) {
    const res = await api.request({ method: 'POST', path, body, schema: z.looseObject({}), capture: true });
    if (!res.captured) throw new Error('capture: true kept no bytes');
    return { requestId: res.requestId, captured: res.captured, body };
  }
  const isTerminal =
    format === 'messages' ? isMessagesTerminal : format === 'responses' ? isResponsesTerminal : undefined;
  const res = await api.stream({ method: 'POST', path, body, isTerminal, capture: true });
  for await (const _batch of res.batches) {
    // Read to the end: the capture settles when the body does.
  }
  const captured = await res.captured;
  if (!captured) throw new Error('capture: true kept no bytes');
  return { requestId: res.requestId, captured, body };
}
