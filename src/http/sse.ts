import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { AbortedError, isOrbitError, StreamError } from './errors.js';

export interface SseEvent {
  /** The `event:` name, when the frame had one. */
  event?: string;
  /** The `data:` lines joined with newlines (eventsource-parser does the joining). */
  data: string;
}

export interface SseOptions {
  requestId?: string;
  /** True when this event ends the stream normally (besides the literal `[DONE]`). */
  isTerminal?: (event: SseEvent) => boolean;
  /** The caller's cancellation: a body that breaks after it fired is an AbortedError, not a cut stream. */
  signal?: AbortSignal;
}

/**
 * Reads Server-Sent Events from a byte stream. Ends at `[DONE]` or a terminal event; a mid-stream
 * error chunk becomes a StreamError, and so does EOF without a terminal marker: a partial answer
 * is never passed off as a whole one.
 */
export async function* readSse(
  body: AsyncIterable<Uint8Array>,
  options: SseOptions = {},
): AsyncGenerator<SseEvent> {
  const queue: SseEvent[] = [];
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      queue.push(message.event ? { event: message.event, data: message.data } : { data: message.data });
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of body) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      while (queue.length > 0) {
        const event = queue.shift()!;
        if (event.data === '[DONE]') return;
        throwIfErrorEvent(event, options.requestId);
        yield event;
        if (options.isTerminal?.(event)) return;
      }
    }
  } catch (error) {
    // A socket error or timeout of the body is a cut stream, never a raw transport error.
    if (isOrbitError(error)) throw error;
    if (options.signal?.aborted) throw new AbortedError();
    const code = (error as { code?: unknown } | null)?.code;
    const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    throw incomplete(
      `The connection broke before the platform finished the answer (${reason}).`,
      options,
      error,
    );
  }
  parser.feed(decoder.decode());
  // A frame without its closing blank line is incomplete by definition.
  throw incomplete('The stream ended before the platform finished the answer.', options);
}

function incomplete(message: string, options: SseOptions, cause?: unknown): StreamError {
  return new StreamError('stream_incomplete', message, {
    requestId: options.requestId,
    cause,
    fix: 'The answer was cut off mid-way; call again. If it keeps happening, call without streaming.',
  });
}

/** Mid-stream errors of the three formats: a chunk with finish_reason `error`, an `error` event, `response.failed`. */
function throwIfErrorEvent(event: SseEvent, requestId: string | undefined): void {
  const looksLikeError =
    event.event === 'error' || event.data.includes('"error"') || event.data.includes('response.failed');
  if (!looksLikeError) return;
  let json: unknown;
  try {
    json = JSON.parse(event.data);
  } catch {
    return;
  }
  if (!json || typeof json !== 'object') return;
  const record = json as Record<string, unknown>;
  const choices = Array.isArray(record.choices) ? record.choices : [];
  const finishedWithError = choices.some(
    (choice) =>
      choice && typeof choice === 'object' && (choice as Record<string, unknown>).finish_reason === 'error',
  );
  const failed = record.type === 'error' || record.type === 'response.failed' || event.event === 'error';
  if (!finishedWithError && !failed) return;
  const detail = pickError(record);
  throw new StreamError('stream_error', detail.message ?? 'The platform reported an error mid-stream.', {
    requestId,
    status: detail.status,
    upstreamCode: detail.code,
    fix: 'The answer failed mid-way and may be incomplete; call again. Billing for the failed stream can be checked with the request id.',
  });
}

function pickError(record: Record<string, unknown>): { message?: string; status?: number; code?: string } {
  const candidates = [record.error, (record.response as Record<string, unknown> | undefined)?.error];
  for (const candidate of candidates) {
    if (candidate && typeof candidate === 'object') {
      const e = candidate as Record<string, unknown>;
      return {
        message: typeof e.message === 'string' ? e.message : undefined,
        status: typeof e.status === 'number' ? e.status : undefined,
        code: typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined,
      };
    }
  }
  return {};
}
