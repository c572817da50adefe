import { z } from 'zod';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  type OrbitErrorOptions,
  PayloadTooLargeError,
  PaymentRequiredError,
  PermissionError,
  RateLimitError,
  ServerError,
  SpendCapError,
  UpstreamTimeoutError,
} from '../errors.js';
import { readReply } from '../replies/read.js';

/**
 * The six error envelopes of spec 1 §7.1 (plus the image API's variant), tried in order.
 * Each parser returns the common fields or undefined when the body is not of its shape.
 */
const common = z.object({
  error: z.object({
    message: z.string(),
    type: z.string().optional(),
    code: z.union([z.string(), z.number()]).nullish(),
    param: z.string().nullish(),
    parameter: z.string().nullish(),
  }),
  code: z.string().optional(),
});
const messages = z.object({
  type: z.literal('error'),
  error: z.object({ type: z.string(), message: z.string(), param: z.string().nullish() }),
});
const legacy = z.object({
  error: z.string(),
  status: z.number().optional(),
  requiredBalance: z.number().optional(),
});
const batch = z.object({ error: z.number(), message: z.string() });
const teams = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
  status: z.number(),
});

export interface ParsedEnvelope {
  message: string;
  type?: string;
  code?: string;
  param?: string;
  details?: Record<string, unknown>;
}

export function parseEnvelope(body: unknown): ParsedEnvelope | undefined {
  const m = readReply(messages, body);
  if (m.success) {
    return { message: m.data.error.message, type: m.data.error.type, param: m.data.error.param ?? undefined };
  }
  const c = readReply(common, body);
  if (c.success) {
    const e = c.data.error;
    const code = e.code ?? c.data.code;
    return {
      message: e.message,
      type: e.type,
      code: code === undefined || code === null ? undefined : String(code),
      param: e.param ?? e.parameter ?? undefined,
    };
  }
  const l = readReply(legacy, body);
  if (l.success) {
    const details: Record<string, unknown> = {};
    if (l.data.requiredBalance !== undefined) details.requiredBalance = l.data.requiredBalance;
    const record = body as Record<string, unknown>;
    for (const key of ['code', 'type', 'userFriendlyError']) {
      if (typeof record[key] === 'string') details[key] = record[key];
    }
    return {
      message: l.data.error,
      code: typeof record.code === 'string' ? record.code : undefined,
      details,
    };
  }
  const b = readReply(batch, body);
  if (b.success) return { message: b.data.message, code: String(b.data.error) };
  const t = readReply(teams, body);
  if (t.success) {
    const details = t.data.details && typeof t.data.details === 'object' ? { ...t.data.details } : undefined;
    return { message: t.data.message, code: t.data.code, details };
  }
  return undefined;
}

/** What a person (or model) should do about each status. */
function fixFor(status: number, code: string | undefined, retryAfterMs: number | undefined): string {
  if (code === 'context_length_exceeded')
    return 'Shorten the messages or pick a model with a longer context.';
  if (code === 'model_not_found' || code === 'model_not_available')
    return 'Call models_list to find a valid model id.';
  if (code === 'content_policy_violation') return 'Rephrase the prompt; this generation was not charged.';
  switch (status) {
    case 400:
    case 422:
      return 'Fix the argument named in the message and call again.';
    case 401:
      return 'Check the API key (ORBIT_API_KEY) or sign in again with auth_login.';
    case 402:
      return 'Top up the account balance, or pick a cheaper model.';
    case 403:
      return 'This credential is not allowed to do that; use a credential with the needed scope or role.';
    case 404:
      return 'Check the id; list the items first to find a valid one.';
    case 409:
      return 'The item is not in a state that allows this; read it again before retrying.';
    case 413:
      return 'The payload is too large; send a URL instead of inline data, or a smaller file.';
    case 429:
      return retryAfterMs !== undefined
        ? `Rate limited; wait ${Math.ceil(retryAfterMs / 1000)} s before calling again.`
        : 'Rate limited; wait a little before calling again.';
    case 408:
    case 504:
      return 'The platform timed out; try again in a moment.';
    default:
      return 'The platform had a problem; try again in a moment.';
  }
}

/** Builds the right ApiError subclass for a non-2xx reply. */
export function errorFromResponse(
  status: number,
  body: unknown,
  meta: { requestId?: string; retryAfterMs?: number; rawText?: string },
): ApiError {
  const parsed = parseEnvelope(body);
  const message =
    parsed?.message ??
    (meta.rawText
      ? meta.rawText.slice(0, 300)
      : `The platform answered HTTP ${status} without an error message.`);
  if (status === 429 && isSpendCap(parsed?.code)) return spendCapError(message, parsed?.code, meta);
  const options: OrbitErrorOptions = {
    status,
    requestId: meta.requestId,
    upstreamCode: parsed?.code,
    upstreamType: parsed?.type,
    param: parsed?.param,
    retryAfterMs: meta.retryAfterMs,
    details: withChallenge(status, body, parsed?.details),
    fix: fixFor(status, parsed?.code, meta.retryAfterMs),
  };
  const Kind = classify(status);
  return new Kind(message, options);
}

/**
 * A 429 for money, not speed: the key's daily USD limit (`daily_usd_limit_exceeded`, spec 1 §7.2)
 * or an app's spend cap (spec 1 §4.2; its code is not shown, the sandbox says
 * `app_spend_cap_exceeded`). Matched by what the code names, so either spelling is caught.
 */
const isSpendCap = (code: string | undefined): boolean =>
  code !== undefined && ['usd', 'spend'].some((word) => code.toLowerCase().includes(word));

/**
 * The message states a cap of 0 (spec 1 §4.2: "0 blocks paid spend"), which no wait lifts: within
 * one sentence, "cap" or "limit" and later "of" or "is" followed by 0 ("limit of 0 USD", "cap of
 * this key is $0.00"). Read word by word, in linear time.
 */
function statesCapOfZero(message: string): boolean {
  let capNamed = false;
  const words = message.toLowerCase().split(' ');
  for (const [i, word] of words.entries()) {
    const bare = trimEnd(word, '.,;:');
    if (bare === 'cap' || bare === 'limit') capNamed = true;
    else if (capNamed && (bare === 'of' || bare === 'is')) {
      const next = trimEnd(words[i + 1] ?? '', '.,;:');
      const amount = next.startsWith('$') ? next.slice(1) : next;
      if (amount !== '' && Number(amount) === 0) return true;
    }
    if (word.endsWith('.')) capNamed = false; // the sentence ends
  }
  return false;
}

const trimEnd = (word: string, marks: string): string => {
  let end = word.length;
  while (end > 0 && marks.includes(word[end - 1]!)) end -= 1;
  return word.slice(0, end);
};

function spendCapError(
  message: string,
  code: string | undefined,
  meta: { requestId?: string; retryAfterMs?: number },
): SpendCapError {
  const common = { status: 429, requestId: meta.requestId, upstreamCode: code };
  if (statesCapOfZero(message)) {
    return new SpendCapError(message, {
      ...common,
      fix: "This key may not spend (its cap is 0); raise it on the platform's key settings. Waiting does not help.",
    });
  }
  const resets =
    meta.retryAfterMs !== undefined
      ? ` It starts again at ${new Date(Date.now() + meta.retryAfterMs).toISOString()}.`
      : '';
  return new SpendCapError(message, {
    ...common,
    retryAfterMs: meta.retryAfterMs,
    fix: `This key's spend cap on the platform is reached.${resets} Raise it on the platform's key settings to spend before then.`,
  });
}

/**
 * An accountless quote (spec 1 §7.3) is a 402 whose body has a top-level `payment` object; the
 * whole body is kept in `details.challenge` for the caller to validate and show (it holds no secret).
 */
function withChallenge(
  status: number,
  body: unknown,
  details: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (status !== 402 || !body || typeof body !== 'object' || !('payment' in body)) return details;
  return { ...details, challenge: body };
}

/** The class (and so the code) for an HTTP status. */
function classify(status: number): typeof ApiError {
  if (status === 400 || status === 422) return BadRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 402) return PaymentRequiredError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 413) return PayloadTooLargeError;
  if (status === 429) return RateLimitError;
  if (status === 408 || status === 504) return UpstreamTimeoutError;
  if (status >= 500) return ServerError;
  return ApiError;
}
