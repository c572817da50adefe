import { AbortedError } from '../../src/errors.js';
import { isRecord } from '../../src/lang.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { isEnclaveModel } from '../../src/tee/index.js';
import { checkReply } from './reply.js';
import { type Exchange, exchanges, tenantOf } from './shared.js';

export interface ReplyToVerify {
  /** The model the request named (a `TEE/` id). */
  model: string;
  /** The reply's X-Request-ID (chat's `request_id`); the reply body's own `id` is used without it. */
  requestId?: string;
  /** The exact request body bytes sent: `captured.request` of a call made with `capture: true`. */
  requestBody: Uint8Array;
  /** The exact reply bytes received (for a stream, all of them): `captured.response`. */
  responseBody: Uint8Array;
}

export interface ShortVerdict {
  verified: boolean;
  /** One sentence for the answer: what was proven, or which check failed and why. */
  verdict: string;
  /** Ids of the failed checks (empty when verified). */
  failed: string[];
  /** The reply's id the signature was fetched by; tee_verify takes it for the full list of checks. */
  requestId?: string;
}

/**
 * What `chat` with `verify: true` calls once it holds the whole reply: keeps the exchange (so
 * tee_verify can show every check later), attests the model or uses the session's attested
 * address, fetches the reply's signature, and checks it against the exact bytes. Never throws
 * but on cancellation: a reply that cannot be verified is still an answer, marked unverified.
 */
export async function verifyReply(
  ctx: Pick<ToolContext, 'api' | 'credentials' | 'target'>,
  input: ReplyToVerify,
): Promise<ShortVerdict> {
  if (!isEnclaveModel(input.model)) {
    return unverified(
      'enclave_model',
      `${input.model} does not run in an enclave, so nothing signs its replies.`,
    );
  }
  const kept = keepExchange(ctx, input);
  if (!kept) {
    return unverified('signature_available', 'the reply carries no request id to fetch its signature by.');
  }
  const { requestId, exchange } = kept;
  try {
    const result = await checkReply(ctx, { model: input.model, requestId, exchange });
    if (result.verified) {
      return {
        verified: true,
        verdict: `verified: signed in an attested enclave (key ${result.signer}); the signature covers the exact request and reply bytes.`,
        failed: [],
        requestId,
      };
    }
    const first = result.checks.find((c) => c.status === 'failed');
    const reason = first
      ? `${first.id} failed: ${first.reason}`
      : 'the signer could not be compared with an attested key.';
    return { verified: false, verdict: `unverified: ${reason}`, failed: result.failed, requestId };
  } catch (error) {
    if (error instanceof AbortedError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...unverified('signature_available', `the signature could not be fetched (${message}).`),
      requestId,
    };
  }
}

/**
 * Keeps the exact bytes of an enclave exchange this server made, under its request id and its
 * body's own id, so tee_verify can bind the signature to them later; undefined when the reply
 * names no id.
 */
export function keepExchange(
  ctx: Pick<ToolContext, 'api' | 'credentials' | 'target'>,
  input: ReplyToVerify,
): { requestId: string; exchange: Exchange } | undefined {
  const bodyId = replyIdOf(input.responseBody);
  const requestId = input.requestId ?? bodyId;
  if (!requestId) return undefined;
  const exchange = { model: input.model, request: input.requestBody, response: input.responseBody };
  const kept = exchanges.forTenant(tenantOf(ctx));
  kept.set(requestId, exchange);
  if (bodyId && bodyId !== requestId) kept.set(bodyId, exchange);
  return { requestId, exchange };
}

function unverified(check: string, why: string): ShortVerdict {
  return { verified: false, verdict: `unverified: ${why}`, failed: [check] };
}

/** The `id` of a JSON reply, or of the first SSE frame that has one (`message.id`, `response.id` too). */
function replyIdOf(bytes: Uint8Array): string | undefined {
  const text = new TextDecoder().decode(bytes);
  const candidates = text.trimStart().startsWith('{')
    ? [text]
    : text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim());
  for (const candidate of candidates) {
    const id = idIn(candidate);
    if (id) return id;
  }
  return undefined;
}

function idIn(json: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  const holders = isRecord(value) ? [value, value.message, value.response] : [];
  for (const holder of holders) if (isRecord(holder) && typeof holder.id === 'string') return holder.id;
  return undefined;
}
