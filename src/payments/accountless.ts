import { createHash } from 'node:crypto';
import type { ToolContext } from '../context.js';
import { HOW_TO_GET } from '../credentials.js';
import {
  AuthenticationError,
  ConflictError,
  InputError,
  MissingCredentialError,
  REPORT_UPSTREAM,
  UpstreamInvalidError,
} from '../errors.js';
import type { BytesResponse, OnBytes } from '../upstream/client.js';
import {
  type Challenge,
  challengeOf,
  type PaymentRequest,
  paymentRequest,
  paymentText,
  railKind,
} from './challenge.js';
import { quotesFor, type StoredQuote } from './quotes.js';
import { paymentRequiredFor } from './x402-required.js';

/**
 * Accountless calls (spec 1 §5, §7.3): without a key (or when the caller asks to pay per call) a
 * payable request goes out with no credential and `x-x402: true`; the 402 quote is kept with the
 * request's exact bytes, and every later replay sends those bytes again. Asking for a quote
 * charges nothing; a quote pays for one call, which the platform enforces and this side checks.
 */
export type Accountless =
  | { kind: 'reply'; reply: BytesResponse }
  | { kind: 'quote'; payment: PaymentRequest };

export interface PayableCall {
  /** The tool that asks, and what it needs to render the paid result the same way later. */
  tool: string;
  render: Record<string, unknown>;
  path: string;
  body: unknown;
  onBytes?: OnBytes;
}

/** Pay per call when asked to, or when there is no API key to pay with. */
export const goesAccountless = (ctx: Pick<ToolContext, 'credentials'>, payment?: 'x402'): boolean =>
  payment === 'x402' || ctx.credentials.get('api_key') === undefined;

type Origin = Pick<StoredQuote, 'tool' | 'render' | 'request'>;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Sends a payable call without a key: its reply when the platform asks for no payment, else its quote. */
export async function callAccountless(ctx: ToolContext, call: PayableCall): Promise<Accountless> {
  const bytes = Buffer.from(JSON.stringify(call.body));
  const origin: Origin = {
    tool: call.tool,
    render: call.render,
    request: { method: 'POST', path: call.path, body: bytes.toString('base64'), sha256: sha256(bytes) },
  };
  return ask(ctx, origin, call.onBytes);
}

async function ask(ctx: ToolContext, origin: Origin, onBytes?: OnBytes): Promise<Accountless> {
  const { method, path } = origin.request;
  try {
    const reply = await ctx.api.bytes({
      method,
      path,
      rawBody: bodyOf(origin),
      credential: 'none',
      headers: { 'x-x402': 'true' },
      onBytes,
      jsonProgress: onBytes !== undefined,
    });
    return { kind: 'reply', reply };
  } catch (error) {
    const found = challengeOf(error, path);
    if (!found) throw notPayable(error, path);
    return { kind: 'quote', payment: keep(ctx, origin, found.challenge) };
  }
}

/** Keeps the quote with the request it prices; returns the payment request to show. */
function keep(ctx: ToolContext, origin: Origin, challenge: Challenge): PaymentRequest {
  const { payment } = challenge;
  const polling = payment.accepted.find((rail) => railKind(rail) === 'polling');
  const lightning = payment.accepted.find((rail) => railKind(rail) === 'lightning' && rail.l402Token);
  const statusUrl = payment.statusUrl ?? polling?.statusUrl;
  const completeUrl = payment.completeUrl ?? polling?.completeUrl;
  quotesFor(ctx).save({
    tool: origin.tool,
    render: origin.render,
    request: origin.request,
    quote_id: payment.paymentId,
    platform: ctx.api.baseUrl,
    amount_usd: payment.amountUsd,
    expires_at: payment.expiresAt,
    ...(statusUrl ? { status_url: statusUrl } : {}),
    ...(completeUrl ? { complete_url: completeUrl } : {}),
    ...(lightning?.l402Token
      ? { l402: { token: lightning.l402Token, payment_hash: lightning.paymentHash } }
      : {}),
    exact: payment.accepted.some((rail) => railKind(rail) === 'exact'),
  });
  const exact = payment.accepted.filter((rail) => railKind(rail) === 'exact');
  return { ...paymentRequest(challenge), ...paymentRequiredFor(challenge, exact, origin.tool) };
}

/** The original bytes, refused when they no longer match the hash kept with them (a changed file). */
function bodyOf(origin: Origin): Buffer {
  const bytes = Buffer.from(origin.request.body, 'base64');
  if (sha256(bytes) !== origin.request.sha256) {
    throw new InputError(
      'The request kept for this quote was changed since it was quoted; it was not sent.',
      {
        fix: `Call ${origin.tool} again with the same arguments for a new quote.`,
        param: 'quote_id',
      },
    );
  }
  return bytes;
}

/** A key-only route refuses a keyless request with 401: say that plainly. */
function notPayable(error: unknown, path: string): unknown {
  if (!(error instanceof AuthenticationError)) return error;
  return new MissingCredentialError(`${path} cannot be paid per call; it needs an API key.`, {
    fix: `${HOW_TO_GET.api_key} x402_endpoints lists what can be paid per call.`,
    requestId: error.requestId,
  });
}

/**
 * Replays the quoted request byte for byte with a proof of payment (an L402 authorization or an
 * X-PAYMENT payload). A refusal that carries a fresh quote becomes a clear error naming it.
 */
export async function replay(
  ctx: ToolContext,
  quote: StoredQuote,
  headers: Record<string, string>,
  onBytes?: OnBytes,
): Promise<BytesResponse> {
  const { method, path } = quote.request;
  try {
    return await ctx.api.bytes({
      method,
      path,
      rawBody: bodyOf(quote),
      credential: 'none',
      headers,
      onBytes,
      jsonProgress: onBytes !== undefined,
    });
  } catch (error) {
    const found = challengeOf(error, path);
    if (!found) throw error;
    const fresh = keep(ctx, quote, found.challenge);
    throw refused(
      `${found.challenge.error?.message ?? found.error.message} Nothing was charged for quote ${quote.quote_id}.`,
      fresh,
      { code: found.challenge.error?.code, requestId: found.error.requestId },
    );
  }
}

/** A quote that cannot pay (used, expired): ask again for the same bytes and name the new quote. */
export async function withNewQuote(
  ctx: ToolContext,
  quote: StoredQuote,
  reason: string,
  code: string,
): Promise<never> {
  const asked = await ask(ctx, quote);
  if (asked.kind === 'reply') {
    throw new UpstreamInvalidError(`${reason} Asking again got a result without payment, not a quote.`, {
      fix: REPORT_UPSTREAM,
      requestId: asked.reply.requestId,
    });
  }
  throw refused(reason, asked.payment, { code });
}

function refused(
  reason: string,
  fresh: PaymentRequest,
  meta: { code?: string; requestId?: string },
): ConflictError {
  return new ConflictError(`${reason} New quote ${fresh.quote_id}: ${fresh.amount_usd} USD.`, {
    upstreamCode: meta.code,
    requestId: meta.requestId,
    fix: paymentText(fresh),
    details: { quote_id: fresh.quote_id },
  });
}
