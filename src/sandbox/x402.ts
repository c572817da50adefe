import type { Context } from 'hono';
import { z } from 'zod';
import { missingKeyError, presentedKey, requireKey } from './billing.js';
import { SandboxError } from './errors.js';
import type { KeyRecord } from './state.js';
import type { OriginalRequest, SandboxContext, SandboxEnv } from './types.js';
import { roundUsd, sha256Hex } from './util.js';
import { challengeBody } from './x402/challenge.js';
import {
  keepQuote,
  originalRequest,
  QUOTE_TTL_MS,
  type Quote,
  quoteStatus,
  quoteStore,
  requestHashOf,
} from './x402/quotes.js';
import {
  EXACT_RAILS,
  isRail,
  paymentHashOf,
  RAIL_INFO,
  type Rail,
  settlementHash,
  walletSignature,
} from './x402/rails.js';

/**
 * The accountless payment challenge (spec 1 §7.3, GAPS "Accountless payment"). Without a key, a
 * request with `x-x402: true` gets a 402 quote; the same request then succeeds once, replayed with
 * `X-PAYMENT` (exact rails) or `Authorization: L402 <token>:<preimage>` (lightning), or replayed by
 * the sandbox itself from `completeUrl` (polling rails). A failed replay gets a clear error code and
 * a fresh quote for the request it carried.
 */
type X402Payer = { kind: 'x402'; paymentId: string; rail: Rail };
export type Payer = { kind: 'key'; record: KeyRecord } | X402Payer;

class PaymentProblem {
  constructor(
    readonly code: string,
    readonly message: string,
  ) {}
}

/** A key as usual; without one, a paid replay, or with `x-x402: true` a 402 quote. */
export function keyOrPayment(c: Context<SandboxEnv>, ctx: SandboxContext, priceUsd: number): Payer {
  if (presentedKey(c)) return { kind: 'key', record: requireKey(c, ctx) };
  const request = originalRequest(c);
  const completing = c.env?.x402Paid;
  if (completing) return settleCompletion(ctx, completing, request, priceUsd);
  const l402 = c.req.header('authorization')?.match(/^(?:L402|LSAT)\s+([^:\s]+):(\S+)\s*$/i);
  const xPayment = c.req.header('x-payment');
  if (l402 || xPayment) {
    const result = l402
      ? redeemL402(ctx, l402[1]!, l402[2]!, request, priceUsd)
      : redeemExact(ctx, xPayment!, request, priceUsd);
    if (result instanceof PaymentProblem) throw quoteError(c, ctx, request, priceUsd, result);
    if (result.rail !== 'lightning-l402') {
      const receipt = {
        success: true,
        hash: settlementHash(result.paymentId, result.rail),
        network: RAIL_INFO[result.rail].network,
      };
      c.header('X-PAYMENT-RESPONSE', Buffer.from(JSON.stringify(receipt)).toString('base64'));
    }
    return result;
  }
  if (c.req.header('x-x402')?.toLowerCase() !== 'true') throw missingKeyError();
  throw quoteError(c, ctx, request, priceUsd);
}

/** A new quote for this request, in a 402 whose `error` says why (a plain quote, or a failed replay). */
function quoteError(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  request: OriginalRequest,
  priceUsd: number,
  problem?: PaymentProblem,
): SandboxError {
  const requestHash = requestHashOf(request);
  const quote: Quote = {
    paymentId: `pay_${sha256Hex(`${requestHash}|${c.get('seq')}`).slice(0, 24)}`,
    requestHash,
    request,
    origin: new URL(c.req.url).origin,
    amountUsd: roundUsd(priceUsd),
    createdAt: ctx.now(),
    expiresAt: ctx.now() + QUOTE_TTL_MS,
  };
  keepQuote(ctx, quote);
  return new SandboxError(402, problem?.message ?? 'Payment required', {
    body: challengeBody(quote, problem && { code: problem.code, message: problem.message }),
  });
}

/** The checks every replay shares: single use, the same request, the same amount, in time. */
function redeem(
  ctx: SandboxContext,
  quote: Quote,
  request: OriginalRequest,
  priceUsd: number,
  rail: Rail,
): X402Payer | PaymentProblem {
  const status = quoteStatus(quote, ctx.now());
  if (status === 'completed') {
    return new PaymentProblem(
      'payment_already_used',
      `Payment ${quote.paymentId} already paid for one call; a quote pays once. Pay the new quote in \`payment\`.`,
    );
  }
  if (quote.requestHash !== requestHashOf(request)) {
    return new PaymentProblem(
      'payment_request_mismatch',
      `Payment ${quote.paymentId} was quoted for another request (${quote.requestHash}); replay the exact original method, path and body, or pay the new quote in \`payment\`.`,
    );
  }
  if (roundUsd(priceUsd) !== quote.amountUsd) {
    return new PaymentProblem(
      'payment_amount_mismatch',
      `Payment ${quote.paymentId} covers ${quote.amountUsd} USD but this call costs ${roundUsd(priceUsd)} USD; pay the new quote in \`payment\`.`,
    );
  }
  if (status === 'expired') {
    return new PaymentProblem(
      'payment_expired',
      `Payment ${quote.paymentId} expired at ${new Date(quote.expiresAt).toISOString()}; pay the new quote in \`payment\`.`,
    );
  }
  quote.paidAt ??= ctx.now();
  quote.paidWith ??= rail;
  quote.completedAt = ctx.now();
  return { kind: 'x402', paymentId: quote.paymentId, rail };
}

const ExactPayload = z.object({
  paymentId: z.string(),
  payload: z.object({ rail: z.string(), amount: z.string(), payTo: z.string(), signature: z.string() }),
});

function redeemExact(
  ctx: SandboxContext,
  header: string,
  request: OriginalRequest,
  priceUsd: number,
): X402Payer | PaymentProblem {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const parsed = ExactPayload.safeParse(decoded);
  if (!parsed.success) {
    return new PaymentProblem(
      'invalid_payment',
      'X-PAYMENT is not a payment payload (base64 JSON with `paymentId` and a signed `payload`) from a wallet.',
    );
  }
  const { paymentId, payload } = parsed.data;
  const quote = quoteStore(ctx).get(paymentId);
  if (!quote)
    return new PaymentProblem('payment_not_found', `No quote ${paymentId}; pay the new quote below.`);
  const rail = payload.rail;
  if (!isRail(rail) || !EXACT_RAILS.includes(rail)) {
    return new PaymentProblem(
      'invalid_payment',
      `X-PAYMENT names rail "${rail}"; X-PAYMENT settles only the exact rails ${EXACT_RAILS.join(', ')}.`,
    );
  }
  const info = RAIL_INFO[rail];
  const expected = walletSignature(paymentId, rail, payload.amount, payload.payTo);
  if (
    payload.signature !== expected ||
    payload.amount !== info.amount(quote.amountUsd) ||
    payload.payTo !== info.payTo
  ) {
    return new PaymentProblem(
      'invalid_payment',
      `X-PAYMENT for ${paymentId} does not carry a valid wallet signature over the quoted amount and payee.`,
    );
  }
  return redeem(ctx, quote, request, priceUsd, rail);
}

const L402Token = z.object({ paymentId: z.string(), paymentHash: z.string() });

function redeemL402(
  ctx: SandboxContext,
  token: string,
  preimage: string,
  request: OriginalRequest,
  priceUsd: number,
): X402Payer | PaymentProblem {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const parsed = L402Token.safeParse(decoded);
  const quote = parsed.success ? quoteStore(ctx).get(parsed.data.paymentId) : undefined;
  if (!parsed.success || !quote) {
    return new PaymentProblem('payment_not_found', 'The L402 token names no quote; pay the new quote below.');
  }
  if (!/^[0-9a-f]{64}$/i.test(preimage) || paymentHashOf(preimage) !== parsed.data.paymentHash) {
    return new PaymentProblem(
      'invalid_payment',
      'The L402 preimage does not hash to the invoice payment hash; send the preimage your wallet shows after paying.',
    );
  }
  // The preimage proves payment. The wallet can pay only before expiry, so an unrecorded payment
  // after expiry is refused; one recorded in time (the control route's pay) stays good.
  if (quote.paidAt === undefined && quote.expiresAt > ctx.now()) {
    quote.paidAt = ctx.now();
    quote.paidWith = 'lightning-l402';
  }
  return redeem(ctx, quote, request, priceUsd, 'lightning-l402');
}

/** The replay `completeUrl` makes; the route checked the quote is paid and unused. */
function settleCompletion(
  ctx: SandboxContext,
  paymentId: string,
  request: OriginalRequest,
  priceUsd: number,
): X402Payer {
  const quote = quoteStore(ctx).get(paymentId);
  const result = quote ? redeem(ctx, quote, request, priceUsd, quote.paidWith ?? 'base-usdc') : undefined;
  if (!result || result instanceof PaymentProblem) {
    throw new SandboxError(409, result?.message ?? `No quote ${paymentId}.`, {
      code: result?.code ?? 'payment_not_found',
    });
  }
  return result;
}
