import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { defaultFaultCode, defaultFaultMessage } from './faults.js';
import type { SandboxContext, SandboxEnv } from './types.js';
import { sleep } from './util.js';

export interface SseFrame {
  /** The `event:` name, for named-event formats (messages). */
  event?: string;
  /** Strings go out as they are (`[DONE]`); anything else as JSON. */
  data: unknown;
}

interface StreamError {
  status: number;
  message: string;
  code: string;
}

export interface SseOptions {
  /** The format's mid-stream error, used when a fault asks for one after `sent` frames. */
  errorFrames(error: StreamError, sent: number): SseFrame[];
  headers?: Record<string, string>;
}

function formatFrame(frame: SseFrame): string {
  const data = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
  return `${frame.event ? `event: ${frame.event}\n` : ''}data: ${data}\n\n`;
}

/**
 * Sends precomputed frames as Server-Sent Events, applying the request's stream fault. Writes to
 * the Node response directly: a cut must happen after the frames before it reached the socket,
 * which only a write callback can promise.
 */
export async function streamSse(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  frames: SseFrame[],
  options: SseOptions,
): Promise<Response> {
  const fault = c.get('fault');
  const cutAt = fault?.cutStreamAfterEvents;
  const errorAt = fault?.streamErrorAfterEvents;
  const streamError: StreamError = {
    status: fault?.status ?? 500,
    message: fault?.message ?? defaultFaultMessage(fault?.status ?? 500),
    code: fault?.code ?? defaultFaultCode(fault?.status ?? 500) ?? 'server_error',
  };
  const headers = {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Request-ID': c.get('requestId'),
    ...options.headers,
  };
  // An enclave model's reply is signed over the bytes as sent, so they pass through the tap.
  const tap = c.get('sseTap') ?? ((text: string) => text);
  const outgoing = c.env?.outgoing;
  if (!outgoing) {
    // Not behind @hono/node-server (e.g. app.request in-process): send it all at once.
    const sent =
      errorAt !== undefined
        ? [...frames.slice(0, errorAt), ...options.errorFrames(streamError, errorAt)]
        : frames;
    const text = sent
      .slice(0, cutAt ?? sent.length)
      .map(formatFrame)
      .join('');
    return c.body(tap(text), 200, headers);
  }
  outgoing.writeHead(200, headers);
  let closed = false;
  outgoing.once('close', () => {
    closed = true;
  });
  for (let i = 0; i <= frames.length && !closed; i++) {
    if (i === cutAt) {
      outgoing.socket?.destroy();
      return RESPONSE_ALREADY_SENT;
    }
    if (i === errorAt) {
      for (const frame of options.errorFrames(streamError, i)) await write(outgoing, tap(formatFrame(frame)));
      break;
    }
    const frame = frames[i];
    if (!frame) break;
    if (i > 0) await sleep(ctx.timing.streamChunkDelayMs, c.req.raw.signal, ctx.closing);
    await write(outgoing, tap(formatFrame(frame)));
  }
  outgoing.end();
  return RESPONSE_ALREADY_SENT;
}

/** Resolves once the bytes are handed to the OS (or the socket is gone). */
function write(outgoing: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (outgoing.destroyed) return resolve();
    outgoing.write(text, () => resolve());
  });
}
