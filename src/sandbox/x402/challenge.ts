import { QUOTE_TTL_MS, type Quote } from './quotes.js';
import {
  invoiceOf,
  l402TokenOf,
  POLLING_RAILS,
  paymentHashOf,
  preimageOf,
  RAIL_INFO,
  RAILS,
} from './rails.js';

export const statusUrlOf = (quote: Quote): string => `${quote.origin}/api/x402/status/${quote.paymentId}`;
export const completeUrlOf = (quote: Quote): string => `${quote.origin}/api/x402/complete/${quote.paymentId}`;

/** A USD amount as the quote writes it: a plain decimal string without float noise. */
export const usdString = (usd: number): string => String(Math.round(usd * 1e9) / 1e9);

/**
 * The 402 body of spec 1 §7.3: `error`, the `payment` object with every rail in `accepted[]`,
 * and the legacy `x402Version` / `accepts[]` (its exact rails only) for older clients.
 */
export function challengeBody(
  quote: Quote,
  error: { code: string; message: string } = {
    code: 'insufficient_quota',
    message: `Payment of ${usdString(quote.amountUsd)} USD required: pay one rail of \`payment.accepted\`, then finish the call.`,
  },
): Record<string, unknown> {
  const { paymentId } = quote;
  const expiresAt = new Date(quote.expiresAt).toISOString();
  const amountUsd = usdString(quote.amountUsd);
  const statusUrl = statusUrlOf(quote);
  const completeUrl = completeUrlOf(quote);
  const accepted = RAILS.map((rail) => {
    const info = RAIL_INFO[rail];
    return {
      scheme: rail,
      protocolScheme: info.protocolScheme,
      network: info.network,
      amount: info.amount(quote.amountUsd),
      amountFormatted: info.formatted(quote.amountUsd),
      amountUsd,
      payTo: info.payTo,
      paymentId,
      expiresAt,
      ...(info.asset ? { asset: info.asset } : {}),
      ...(info.feePayer ? { feePayer: info.feePayer } : {}),
      ...(POLLING_RAILS.includes(rail) ? { statusUrl, completeUrl } : {}),
      ...(rail === 'lightning-l402'
        ? {
            invoice: invoiceOf(paymentId, quote.amountUsd),
            paymentHash: paymentHashOf(preimageOf(paymentId)),
            l402Token: l402TokenOf(paymentId),
          }
        : {}),
    };
  });
  const resource = `${quote.origin}${quote.request.path}${quote.request.search}`;
  return {
    error: { type: 'payment_required', ...error },
    payment: {
      version: 1,
      paymentId,
      requestHash: quote.requestHash,
      expiresAt,
      amountUsd,
      statusUrl,
      completeUrl,
      accepted,
    },
    x402Version: 1,
    accepts: (['x402-exact', 'x402-solana-usdc'] as const).map((rail) => ({
      scheme: 'exact',
      network: RAIL_INFO[rail].network,
      maxAmountRequired: RAIL_INFO[rail].amount(quote.amountUsd),
      resource,
      description: `Accountless call to ${quote.request.method} ${quote.request.path}`,
      mimeType: 'application/json',
      payTo: RAIL_INFO[rail].payTo,
      maxTimeoutSeconds: QUOTE_TTL_MS / 1000,
      asset: RAIL_INFO[rail].asset,
      extra: { paymentId },
    })),
  };
}
