import {
  REPORT_UPSTREAM,
  StreamFailedError,
  StreamIncompleteError,
  UpstreamInvalidError,
} from '../../src/errors.js';
import type { Progress } from '../../src/mcp/define-tool.js';
import type { CapturedExchange } from '../../src/upstream/capture.js';
import type { Api } from '../../src/upstream/client.js';
import type { SseEvent } from '../../src/upstream/sse.js';
import type { ChatState } from './reply.js';
import { applyChat, applyChatBody, ChatBody } from './reply-chat.js';
import { applyMessage, applyMessageEvent, isMessagesTerminal, MessageBody } from './reply-messages.js';
import { applyResponse, applyResponseEvent, isResponsesTerminal, ResponseBody } from './reply-responses.js';
import type { ChatRequest } from './request.js';

/** What the platform said about the exchange besides the answer. */
export interface Exchange {
  requestId?: string;
  /** The exact bytes sent and received, when the request asked for them (`capture`). */
  captured?: CapturedExchange;
}

/** One request and its whole reply, read into `state`. */
export async function callInto(state: ChatState, api: Api, request: ChatRequest): Promise<Exchange> {
  const spec = {
    method: 'POST' as const,
    path: request.path,
    body: request.body,
    headers: request.headers,
    capture: request.capture,
  };
  if (request.format === 'messages') {
    const res = await api.request({ ...spec, schema: MessageBody });
    applyMessage(state, res.data);
    return exchange(res, res.captured);
  }
  if (request.format === 'responses') {
    const res = await api.request({ ...spec, schema: ResponseBody });
    applyResponse(state, res.data);
    return exchange(res, res.captured);
  }
  const res = await api.request({ ...spec, schema: ChatBody });
  applyChatBody(state, res.data);
  return exchange(res, res.captured);
}

const exchange = (res: { requestId?: string }, captured?: CapturedExchange): Exchange => ({
  requestId: res.requestId,
  ...(captured ? { captured } : {}),
});

/**
 * Streams the reply into `state`, relaying the growing answer as progress. Once the stream has
 * started the platform has the request: a failure from then on keeps the request id and says a
 * charge may have been recorded (spec 1 §7.2), so the caller checks before paying twice.
 */
export async function streamInto(
  state: ChatState,
  api: Api,
  request: ChatRequest,
  progress: Progress,
): Promise<Exchange> {
  const { format } = request;
  const isTerminal =
    format === 'messages' ? isMessagesTerminal : format === 'responses' ? isResponsesTerminal : undefined;
  const res = await api.stream({
    method: 'POST',
    path: request.path,
    body: request.body,
    headers: request.headers,
    capture: request.capture,
    isTerminal,
  });
  const apply = (event: SseEvent) => {
    if (format === 'messages') applyMessageEvent(state, event);
    else if (format === 'responses') applyResponseEvent(state, event, res.requestId);
    else applyChat(state, JSON.parse(event.data));
  };
  let shown = 0;
  try {
    for await (const batch of res.batches) {
      for (const event of batch.events) {
        try {
          apply(event);
        } catch (error) {
          if (error instanceof UpstreamInvalidError) throw error;
          throw new UpstreamInvalidError(
            `The platform sent a stream event that could not be read: ${(error as Error).message}`,
            {
              requestId: res.requestId,
              fix: `${REPORT_UPSTREAM} Calling with stream: false may work meanwhile.`,
            },
          );
        }
      }
      // One report per network read: what arrived together is shown together. The read that ends
      // the stream is not reported: the result carries the same text at the same moment.
      const seen = state.text.length + state.reasoning.length;
      if (!batch.last && seen > shown) {
        shown = seen;
        progress.report(growing(state));
      }
    }
  } catch (error) {
    throw mayHaveCharged(error, res.requestId, state.responseId);
  }
  // The result carries the whole answer; a partial one still waiting out the throttle is stale.
  progress.discard?.();
  return exchange(res, await res.captured);
}

/** The answer so far, tail-capped so a notification stays small. */
function growing(state: ChatState): string {
  const text = state.text || `(thinking) ${state.reasoning}`;
  return text.length > 1000 ? `…${text.slice(-1000)}` : text;
}

/** A stream that failed after it started: the same error, with the money and the ids made plain. */
function mayHaveCharged(
  error: unknown,
  requestId: string | undefined,
  responseId: string | undefined,
): unknown {
  const Kind =
    error instanceof StreamIncompleteError
      ? StreamIncompleteError
      : error instanceof StreamFailedError
        ? StreamFailedError
        : undefined;
  if (!Kind || !(error instanceof Kind)) return error;
  const id = error.requestId ?? requestId;
  return new Kind(`${error.message} The stream had started, so a charge may have been recorded.`, {
    status: error.status,
    upstreamCode: error.upstreamCode,
    requestId: id,
    cause: error,
    fix: id
      ? `Check your usage for request ${id} before calling again: a new call is charged again.`
      : 'Check your recent usage before calling again: a new call is charged again.',
    ...(responseId ? { details: { response_id: responseId } } : {}),
  });
}
