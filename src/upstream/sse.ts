import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { AbortedError, isOrbitError, StreamFailedError, StreamIncompleteError } from '../errors.js';

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
  /** How long the rest of the body may take to end after the terminal marker before it is cut. */
  drainMs?: number;
}

/** The events of one network read; `last` when the stream's terminal marker came with them. */
export interface SseBatch {
  events: SseEvent[];
  last: boolean;
}

/** A response body: bytes, and a way to let go of it (undici's body is a Readable). */
export type SseBody = AsyncIterable<Uint8Array> & { destroy?: () => unknown };

/**
 * Reads Server-Sent Events from a byte stream, one batch per network read (a fast stream hands
 * over many events at once, and each hop through an async generator costs). Ends at `[DONE]` or a
 * terminal event; a mid-stream error chunk becomes a StreamError, and so does EOF without a
 * terminal marker: a partial answer is never passed off as a whole one.
 */
export async function* readSse(body: SseBody, options: SseOptions = {}): AsyncGenerator<SseBatch> {
  let queue: SseEvent[] = [];
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      queue.push(message.event ? { event: message.event, data: message.data } : { data: message.data });
    },
  });
  const decoder = new TextDecoder();
  const chunks = body[Symbol.asyncIterator]();
  let ended = false;
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) break;
      parser.feed(decoder.decode(next.value, { stream: true }));
      if (queue.length === 0) continue;
      const batch = queue;
      queue = [];
      for (let i = 0; i < batch.length; i++) {
        const event = batch[i]!;
        const done = event.data === '[DONE]';
        const error = done ? undefined : errorIn(event, options.requestId);
        if (!done && !error && !options.isTerminal?.(event)) continue;
        // Everything before the marker or the error still reaches the caller, in order.
        const upTo = done || error ? i : i + 1;
        const events = upTo === batch.length ? batch : batch.slice(0, upTo);
        if (error) {
          if (upTo > 0) yield { events, last: false };
          throw error;
        }
        ended = true;
        drain(chunks, body, options.drainMs ?? 1_000);
        yield { events, last: true };
        return;
      }
      yield { events: batch, last: false };
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
  } finally {
    // The caller stopped early or the stream failed: let go of the connection.
    if (!ended) void chunks.return?.()?.catch(() => {});
  }
  parser.feed(decoder.decode());
  // A frame without its closing blank line is incomplete by definition.
  throw incomplete('The stream ended before the platform finished the answer.', options);
}

/**
 * Reads the body to its end in the background once the answer is complete: a body left half-read
 * is destroyed, which costs a stack-traced AbortError and can cost the keep-alive connection. A
 * platform that holds the stream open after its marker is cut after `graceMs`.
 */
function drain(chunks: AsyncIterator<Uint8Array>, body: SseBody, graceMs: number): void {
  const timer = setTimeout(() => body.destroy?.(), graceMs);
  timer.unref?.();
  void (async () => {
    try {
      while (!(await chunks.next()).done) {}
    } catch {
      // Cut or destroyed after the answer was complete: nothing is lost.
    } finally {
      clearTimeout(timer);
    }
  })();
}

function incomplete(message: string, options: SseOptions, cause?: unknown): StreamIncompleteError {
  return new StreamIncompleteError(message, {
    requestId: options.requestId,
    cause,
    fix: 'The answer was cut off mid-way; call again. If it keeps happening, call without streaming.',
  });
}

/** Mid-stream errors of the three formats: a chunk with finish_reason `error`, an `error` event, `response.failed`. */
function errorIn(event: SseEvent, requestId: string | undefined): StreamFailedError | undefined {
  const looksLikeError =
    event.event === 'error' || event.data.includes('"error"') || event.data.includes('response.failed');
  if (!looksLikeError) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(event.data);
  } catch {
    return undefined;
  }
  if (!json || typeof json !== 'object') return undefined;
  const record = json as Record<string, unknown>;
  const choices = Array.isArray(record.choices) ? record.choices : [];
  const finishedWithError = choices.some(
    (choice) =>
      choice && typeof choice === 'object' && (choice as Record<string, unknown>).finish_reason === 'error',
  );
  const failed = record.type === 'error' || record.type === 'response.failed' || event.event === 'error';
  if (!finishedWithError && !failed) return undefined;
  const detail = pickError(record);
  return new StreamFailedError(detail.message ?? 'The platform reported an error mid-stream.', {
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
