import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { type CredentialKind, type CredentialProvider, howToGet } from '../credentials.js';
import {
  AbortedError,
  ConnectionError,
  MissingCredentialError,
  NoPlatformError,
  type OrbitError,
  StreamFailedError,
  StreamIncompleteError,
  TimeoutError,
  UpstreamInvalidError,
  UpstreamTimeoutError,
} from '../errors.js';
import { notePayload } from '../heap.js';
import { sleep } from '../lang.js';
import type { Logger } from '../log.js';
import type { PlatformTrace } from '../otel/types.js';
import { PLATFORM_WORD } from '../word.js';
import { type CapturedExchange, tapBody } from './capture.js';
import { errorFromResponse } from './envelopes.js';
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

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | null | readonly string[];

export interface RequestSpec {
  method: HttpMethod;
  /** Path under the host, starting with `/` (for example `/api/v1/models`), or an absolute URL of the platform. */
  path: string;
  host?: 'base' | 'direct';
  query?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  /**
   * Body bytes sent exactly as given (JSON unless `headers` names another content-type): a replay
   * that must match the bytes a quote was made for (spec 1 §7.3). Takes the place of `body`.
   */
  rawBody?: Buffer;
  /** Multipart body (a web FormData). */
  form?: FormData;
  headers?: Record<string, string>;
  /** Which credential to send; defaults to the API key. */
  credential?: CredentialKind | 'none' | 'optional';
  /**
   * An API key goes in `Authorization: Bearer` unless the spec marks the route `x-api-key` (spec 2
   * §4.2 legacy text, §4.7 tts, §4.8 transcribe, §4.9 video-link transcription) or the platform's
   * reference documents it so (issue 32: the tts and transcription polls, video status, recover
   * and extend).
   */
  apiKeyHeader?: 'x-api-key';
  /** Sent as `Idempotency-Key`, which also makes a POST safe to retry. */
  idempotencyKey?: string;
  timeoutMs?: number;
  /**
   * Keep the exact request body bytes sent and reply bytes received (`captured` on the reply), to
   * check an enclave's signature over them. Off by default: the normal path copies nothing.
   */
  capture?: boolean;
}

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

export interface SseResponse {
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

export interface ClientOptions {
  /** Undefined when no platform is configured: every call then explains how to configure one. */
  baseUrl: string | undefined;
  directBaseUrl?: string;
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
  userAgent: string;
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
 * The cookie that carries a signed-in session (spec 1 §5 names no cookie): `<word>_session`, the
 * platform's word like every identifier it names, and what the sandbox reads.
 */
export const SESSION_COOKIE = `${PLATFORM_WORD}_session`;

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
    const url = this.url(spec);
    const credential = this.credentialFor(spec, scope.credentials);
    const headers = this.headers(spec, credential?.kind, credential?.value);
    let body = await encodeBody(spec, headers);
    if (sent) {
      sent.bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : (body ?? EMPTY);
      body = sent.bytes.length > 0 ? sent.bytes : body;
    }
    const idempotent = isIdempotent(spec.method, spec.idempotencyKey !== undefined);
    // The budget counts the attempts too: a GET that timed out already cost timeoutMs.
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
        failure = errorFromResponse(res.statusCode, safeJson(text), {
          requestId,
          retryAfterMs: retryAfter,
          rawText: text,
        });
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

  private url(spec: RequestSpec): string {
    const base = this.options.baseUrl;
    if (base === undefined) {
      throw new NoPlatformError('No platform is configured, so there is nothing to call.', {
        fix: 'Set ORBIT_BASE_URL and ORBIT_API_KEY for the real platform, or restart with --sandbox to try everything offline.',
      });
    }
    const host = spec.host === 'direct' ? (this.options.directBaseUrl ?? base) : base;
    const absolute = /^https?:\/\//.test(spec.path);
    const written = absolute ? spec.path : `${host}${spec.path}`;
    const query =
      spec.query && Object.values(spec.query).some((value) => value != null) ? spec.query : undefined;
    // Most calls go to a handful of fixed routes on our host: each is parsed and normalised once
    // (an absolute URL, such as a signed download link, is not kept).
    if (!query && !absolute) return normalisedUrl(written);
    const url = new URL(written);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, item);
      else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private credentialFor(spec: RequestSpec, credentials: CredentialProvider) {
    const wanted = spec.credential ?? 'api_key';
    if (wanted === 'none') return undefined;
    if (wanted === 'optional') return credentials.get('api_key');
    const credential = credentials.get(wanted);
    if (!credential) {
      throw new MissingCredentialError(`This needs ${wanted.replace('_', ' ')}, and none is configured.`, {
        fix: howToGet(credentials, wanted),
        details: { credential: wanted },
      });
    }
    return credential;
  }

  private headers(spec: RequestSpec, kind: CredentialKind | undefined, value: string | undefined) {
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: 'application/json',
    };
    // A bare session value goes in the platform's session cookie; a full `name=value` pair as given.
    if (kind === 'session' && value)
      headers.cookie = value.includes('=') ? value : `${SESSION_COOKIE}=${value}`;
    else if (value && kind === 'api_key' && spec.apiKeyHeader) headers['x-api-key'] = value;
    else if (value) headers.authorization = `Bearer ${value}`;
    if (spec.body !== undefined || spec.rawBody !== undefined) headers['content-type'] = 'application/json';
    if (spec.idempotencyKey) headers['idempotency-key'] = spec.idempotencyKey;
    return { ...headers, ...spec.headers };
  }
}

/** Parsed URLs by their written form; bounded, since paths may carry ids (a job, a response). */
const normalised = new Map<string, string>();
const NORMALISED_MAX = 256;

function normalisedUrl(written: string): string {
  let url = normalised.get(written);
  if (url === undefined) {
    url = new URL(written).toString();
    if (normalised.size >= NORMALISED_MAX) normalised.clear();
    normalised.set(written, url);
  }
  return url;
}

/** Errors that happen before the request reaches the platform: nothing was received, nothing charged. */
const NOT_REACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * False when a failure happened before the request could reach the platform (nothing was received,
 * nothing charged); true when the platform may have received it (a timeout, a dropped connection).
 */
export function mayHaveReached(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return !(typeof cause?.code === 'string' && NOT_REACHED.has(cause.code));
}

/**
 * True when a call failed after the platform may have run it, so it may have been charged: a
 * timeout, a connection lost once the request went out, a stream cut or failed after it began, or
 * a reply that came but could not be read. A refusal (4xx), a platform error and anything that
 * happened before sending are not.
 */
export function mayHaveCharged(error: unknown): boolean {
  return (
    error instanceof TimeoutError ||
    error instanceof UpstreamTimeoutError ||
    error instanceof StreamIncompleteError ||
    error instanceof StreamFailedError ||
    error instanceof UpstreamInvalidError ||
    (error instanceof ConnectionError && mayHaveReached(error))
  );
}

/**
 * What a failed exchange means for the caller. A connection that could not be made is "could not
 * reach"; one that closed after the request went out may have been received (and charged), and a
 * stream cut before its first event is an incomplete stream, not an unreachable platform.
 */
function networkFailure(
  error: unknown,
  context: { timeoutMs: number; baseUrl: string | undefined; streaming: boolean },
): OrbitError {
  const code = (error as { code?: string }).code;
  const reason = code ?? (error as Error).message;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(`The platform did not answer within ${context.timeoutMs} ms.`, {
      cause: error,
      fix: 'Try again, or raise ORBIT_TIMEOUT_MS.',
    });
  }
  if (code !== undefined && NOT_REACHED.has(code)) {
    return new ConnectionError(`Could not reach the platform at ${context.baseUrl} (${reason}).`, {
      cause: error,
      fix: 'Check ORBIT_BASE_URL and the network, then call again.',
    });
  }
  if (context.streaming) {
    return new StreamIncompleteError(
      `The connection broke before the platform started the answer (${reason}).`,
      {
        cause: error,
        fix: 'Call again. The platform may have received the request, so a charge may have been recorded.',
      },
    );
  }
  return new ConnectionError(
    `The connection closed before the platform replied (${reason}); the request may have been received.`,
    {
      cause: error,
      fix: 'For a paid call, check your recent usage before calling again; otherwise call again.',
    },
  );
}

/** Encodes once, so a retry sends the same bytes; multipart goes through the web Response encoder. */
async function encodeBody(
  spec: RequestSpec,
  headers: Record<string, string>,
): Promise<string | Buffer | undefined> {
  if (spec.form) {
    const encoded = new Response(spec.form);
    headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
    return Buffer.from(await encoded.arrayBuffer());
  }
  if (spec.rawBody !== undefined) return spec.rawBody;
  return spec.body === undefined ? undefined : JSON.stringify(spec.body);
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
    const code = (error as { code?: unknown } | null)?.code;
    const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    throw new ConnectionError(`The connection broke while the reply was being read (${reason}).`, {
      requestId,
      cause: error,
      fix: 'Call again; if it keeps happening, check the network or raise ORBIT_TIMEOUT_MS.',
    });
  }
}

function requestIdOf(headers: RawResponse['headers']): string | undefined {
  const value = headers['x-request-id'];
  return Array.isArray(value) ? value[0] : value;
}

function flatHeaders(headers: RawResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
