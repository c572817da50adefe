/**
 * The platform client: one undici Agent for the process, three ways to call (`request`, `stream`,
 * `bytes`), and the transport loop that sends with retries. What goes out is built in
 * `outgoing.ts`; what a failure means (and whether it may have cost money) in `failure.ts`.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { CredentialProvider } from '../credentials.js';
import { AbortedError } from '../errors.js';
import { notePayload } from '../heap.js';
import { sleep } from '../lang.js';
import type { Logger } from '../log.js';
import type { PlatformTrace } from '../otel/types.js';
import { type CapturedExchange, tapBody } from './capture.js';
import { networkFailure, readFailure, statusFailure } from './failure.js';
import { outgoing, type Platform, type RequestSpec } from './outgoing.js';
import {
  DEFAULT_RETRY,
  isIdempotent,
  nextDelay,
  type Outcome,
  type RetryPolicy,
  retryAfterMs,
} from './retry.js';
import { readSse, type SseBatch, type SseEvent } from './sse.js';
import { parseJsonReply, validateReply } from './validate.js';

/** Told as a binary reply arrives: bytes so far, and the whole size when the reply declared it. */
export type OnBytes = (received: number, total: number | undefined) => void;

export interface ApiResponse<T> {
  data: T;
  status: number;
  requestId?: string;
  headers: Record<string, string>;
  /** The server's hint for when to ask again (a poll of a job still running), when it gave one. */
  retryAfterMs?: number;
  /** The exact bytes exchanged, with `capture: true`. */
  captured?: CapturedExchange;
}

interface SseResponse {
  status: number;
  requestId?: string;
  headers: Record<string, string>;
  /** The events, in order, one batch per network read. */
  batches: AsyncGenerator<SseBatch>;
  /**
   * With `capture: true`: the exact bytes exchanged, every chunk of the stream as received. It
   * settles once `batches` has been read to its end (or given up), and never rejects.
   */
  captured?: Promise<CapturedExchange>;
}

export interface BytesResponse {
  data: Buffer;
  status: number;
  contentType: string;
  requestId?: string;
  headers: Record<string, string>;
}

/** What a tool sees of the platform: three ways to call, all with the same auth, retries and errors. */
export interface Api {
  readonly baseUrl: string;
  /** A JSON call whose reply is validated with `schema` at the boundary. */
  request<S extends z.ZodType>(spec: RequestSpec & { schema: S }): Promise<ApiResponse<z.infer<S>>>;
  /** A streaming call; events end at the terminal marker or throw. */
  stream(spec: RequestSpec & { isTerminal?: (event: SseEvent) => boolean }): Promise<SseResponse>;
  /**
   * A call whose reply may be binary (audio, video) or JSON; the caller looks at contentType.
   * `onBytes` is told of binary replies only, unless `jsonProgress` asks for JSON ones too (a
   * long JSON reply that streams in, such as a crawl).
   */
  bytes(spec: RequestSpec & { onBytes?: OnBytes; jsonProgress?: boolean }): Promise<BytesResponse>;
}

export interface ClientOptions extends Platform {
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
}

export interface CallScope {
  credentials: CredentialProvider;
  signal: AbortSignal;
  log: Logger;
  /** With tracing on: a span per request sent, its context passed on as `traceparent`. */
  trace?: PlatformTrace;
  /** Told the request id of every reply the platform sends (the audit log's record of a call). */
  onRequestId?: (requestId: string) => void;
}

type RawResponse = Dispatcher.ResponseData;

/** Where `send` leaves the request body bytes it sent, for a captured call. */
interface SentBody {
  bytes: Buffer;
}
const EMPTY = Buffer.alloc(0);

/**
 * One undici Agent with keep-alive for the whole process (connections are shared, credentials
 * are not: they come with each call's scope). undici is loaded on the first call, not at start-up.
 */
export class HttpClient {
  private agent: Promise<{ agent: Dispatcher; request: typeof import('undici').request }> | undefined;
  readonly retry: RetryPolicy;

  constructor(readonly options: ClientOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** An Api bound to one caller's credentials, cancellation and log. */
  api(scope: CallScope): Api {
    return {
      baseUrl: this.options.baseUrl ?? '',
      request: async (spec) => {
        const sent: SentBody | undefined = spec.capture ? { bytes: EMPTY } : undefined;
        const res = await this.send(spec, scope, false, sent);
        const requestId = requestIdOf(res.headers);
        const captured = sent && (await captureReply(res, sent, scope.signal, requestId));
        // No name holds the text: a reply of many MB (base64 media) can go once it is parsed.
        const parsed = parseJsonReply(
          captured
            ? // Decoded as body.text() decodes (UTF-8, BOM dropped): capture changes nothing else.
              new TextDecoder().decode(captured.response)
            : await readBody(() => res.body.text(), scope.signal, requestId),
          requestId,
          res.statusCode,
        );
        const data = validateReply(spec.schema, parsed, requestId, spec.path, res.statusCode);
        const reply: ApiResponse<typeof data> = {
          data,
          status: res.statusCode,
          requestId,
          headers: flatHeaders(res.headers),
          retryAfterMs: retryAfterMs(res.headers),
        };
        if (captured) reply.captured = captured;
        return reply;
      },
      stream: async (spec) => {
        const sent: SentBody | undefined = spec.capture ? { bytes: EMPTY } : undefined;
        const res = await this.send(
          { ...spec, headers: { accept: 'text/event-stream', ...spec.headers } },
          scope,
          true,
          sent,
        );
        const requestId = requestIdOf(res.headers);
        const tap = sent ? tapBody(res.body) : undefined;
        const batches = readSse(tap?.body ?? res.body, {
          requestId,
          isTerminal: spec.isTerminal,
          signal: scope.signal,
        });
        const reply: SseResponse = {
          status: res.statusCode,
          requestId,
          headers: flatHeaders(res.headers),
          batches,
        };
        if (sent && tap) {
          reply.captured = tap.ended.then(({ bytes, complete }) => ({
            request: sent.bytes,
            response: bytes,
            complete,
          }));
        }
        return reply;
      },
      bytes: async ({ onBytes, jsonProgress, ...spec }) => {
        const res = await this.send(spec, scope);
        const requestId = requestIdOf(res.headers);
        const headers = flatHeaders(res.headers);
        // A JSON reply (a ticket, an audio URL) is usually small and not what the caller is waiting for.
        const binary = !/json/i.test(headers['content-type'] ?? '');
        const data = await readBody(
          async () =>
            onBytes && (binary || jsonProgress)
              ? collectBytes(res.body, Number(headers['content-length']) || undefined, onBytes)
              : Buffer.from(await res.body.arrayBuffer()),
          scope.signal,
          requestId,
        );
        return {
          data,
          status: res.statusCode,
          contentType: headers['content-type'] ?? 'application/octet-stream',
          requestId,
          headers,
        };
      },
    };
  }

  async close(): Promise<void> {
    const loaded = await this.agent?.catch(() => undefined);
    await loaded?.agent.close();
  }

  private load() {
    this.agent ??= import('undici').then((loaded) => {
      // A bundler may hand a CommonJS module over as its `default` export.
      const undici = (loaded.Agent ? loaded : loaded.default) as typeof loaded;
      return {
        agent: new undici.Agent({ keepAliveTimeout: 30_000, connections: 64 }),
        request: undici.request,
      };
    });
    return this.agent;
  }

  /**
   * Sends with retries; resolves with a 2xx response or throws a typed error. With `sent`, the
   * body goes out as the very Buffer kept there (every attempt sends the same bytes).
   */
  private async send(
    spec: RequestSpec,
    scope: CallScope,
    streaming = false,
    sent?: SentBody,
  ): Promise<RawResponse> {
    const { agent, request } = await this.load();
    const { url, headers, credential, ...encoded } = await outgoing(spec, this.options, scope.credentials);
    let body = encoded.body;
    if (sent) {
      sent.bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : (body ?? EMPTY);
      body = sent.bytes.length > 0 ? sent.bytes : body;
    }
    const idempotent = isIdempotent(spec.method, spec.idempotencyKey !== undefined);
    // maxTotalWaitMs counts the attempts too: a GET that timed out already cost timeoutMs.
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      if (scope.signal.aborted) throw new AbortedError();
      const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs;
      let outcome: Outcome;
      let failure: Error;
      const span = scope.trace?.start(spec.method, spec.path);
      try {
        const res = await request(url, {
          method: spec.method,
          headers: span ? { ...headers, traceparent: span.traceparent } : headers,
          body,
          signal: scope.signal,
          dispatcher: agent,
          // Time to the reply's headers, then idle time between body chunks: a healthy long
          // stream is never cut, a stalled one is.
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const requestId = requestIdOf(res.headers);
        span?.end({ status: res.statusCode, requestId });
        if (requestId) scope.onRequestId?.(requestId);
        if (res.statusCode < 400) return res;
        const retryAfter = retryAfterMs(res.headers);
        const text = await res.body.text().catch(() => '');
        failure = statusFailure(res.statusCode, text, { requestId, retryAfterMs: retryAfter });
        if (res.statusCode === 401 && credential) await scope.credentials.rejected(credential);
        outcome = { kind: 'status', status: res.statusCode, retryAfterMs: retryAfter };
      } catch (error) {
        const code = (error as { code?: string }).code;
        span?.end({ errorType: scope.signal.aborted ? 'aborted' : (code ?? 'network') });
        if (scope.signal.aborted) throw new AbortedError();
        failure = networkFailure(error, { timeoutMs, baseUrl: this.options.baseUrl, streaming });
        outcome = { kind: 'network', notSent: code === 'ECONNREFUSED' };
      }
      const delay = nextDelay(outcome, attempt, idempotent, Date.now() - started, this.retry);
      if (delay === undefined) throw failure;
      scope.log.debug(`retrying ${spec.method} ${spec.path} in ${delay} ms`, { attempt: attempt + 1 });
      await sleep(delay, scope.signal);
    }
  }
}

/** The whole reply body as bytes, kept with the request bytes sent. */
async function captureReply(
  res: RawResponse,
  sent: SentBody,
  signal: AbortSignal,
  requestId: string | undefined,
): Promise<CapturedExchange> {
  const bytes = await readBody(async () => Buffer.from(await res.body.arrayBuffer()), signal, requestId);
  return { request: sent.bytes, response: bytes, complete: true };
}

/** Reads a body chunk by chunk, telling the caller how much has arrived (a slow download shows progress). */
async function collectBytes(
  body: AsyncIterable<Uint8Array>,
  total: number | undefined,
  onBytes: OnBytes,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    received += chunk.length;
    onBytes(received, total);
  }
  return Buffer.concat(chunks, received);
}

/** Reads a reply body; a connection that breaks mid-body is a ConnectionError, never a raw socket error. */
async function readBody<T>(
  read: () => Promise<T>,
  signal: AbortSignal,
  requestId: string | undefined,
): Promise<T> {
  try {
    const body = await read();
    notePayload(typeof body === 'string' || Buffer.isBuffer(body) ? body.length : 0);
    return body;
  } catch (error) {
    if (signal.aborted) throw new AbortedError();
    throw readFailure(error, requestId);
  }
}

/** Longest request id kept: the sandbox's are 10 characters; a proxy's header can be anything. */
const REQUEST_ID_MAX = 128;

/**
 * The reply's request id, as it goes into results, errors and the audit log: printable ASCII
 * only, at most 128 characters (a longer one is cut and ends in `…`), absent when nothing is left.
 */
function requestIdOf(headers: RawResponse['headers']): string | undefined {
  const raw = headers['x-request-id'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  const printable = value.replace(/[^\x21-\x7e]/g, '');
  if (!printable) return undefined;
  return printable.length > REQUEST_ID_MAX ? `${printable.slice(0, REQUEST_ID_MAX)}…` : printable;
}

function flatHeaders(headers: RawResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
