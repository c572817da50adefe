/**
 * The outgoing request, before anything is sent: where it goes, which credential it carries and
 * how, its headers and its body bytes. Built once per call, so every retry sends the same request.
 */
import { type Credential, type CredentialKind, type CredentialProvider, howToGet } from '../credentials.js';
import { MissingCredentialError, NoPlatformError } from '../errors.js';
import { PLATFORM_WORD } from '../word.js';

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

/** The platform's address and how this server names itself to it. */
export interface Platform {
  /** Undefined when no platform is configured: every call then explains how to configure one. */
  baseUrl: string | undefined;
  directBaseUrl?: string;
  userAgent: string;
}

/** A request ready to send. */
export interface Outgoing {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  /** The credential it carries (told to the provider again when the platform refuses it). */
  credential: Credential | undefined;
}

/**
 * The cookie that carries a signed-in session (spec 1 §5 names no cookie): `<word>_session`, the
 * platform's word like every identifier it names, and what the sandbox reads.
 */
export const SESSION_COOKIE = `${PLATFORM_WORD}_session`;

/**
 * The request as it goes out. Throws before anything is sent when no platform is configured or
 * the credential the route needs is missing.
 */
export async function outgoing(
  spec: RequestSpec,
  platform: Platform,
  credentials: CredentialProvider,
): Promise<Outgoing> {
  const url = urlOf(spec, platform);
  const credential = credentialFor(spec, credentials);
  const headers = headersOf(spec, platform.userAgent, credential?.kind, credential?.value);
  const body = await encodeBody(spec, headers);
  return { url, headers, body, credential };
}

function urlOf(spec: RequestSpec, platform: Platform): string {
  const base = platform.baseUrl;
  if (base === undefined) {
    throw new NoPlatformError('No platform is configured, so there is nothing to call.', {
      fix: 'Set ORBIT_BASE_URL and ORBIT_API_KEY for the real platform, or restart with --sandbox to try everything offline.',
    });
  }
  const host = spec.host === 'direct' ? (platform.directBaseUrl ?? base) : base;
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

function credentialFor(spec: RequestSpec, credentials: CredentialProvider): Credential | undefined {
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

function headersOf(
  spec: RequestSpec,
  userAgent: string,
  kind: CredentialKind | undefined,
  value: string | undefined,
) {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
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
