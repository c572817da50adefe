import type { Context } from 'hono';
import { missingKeyError, presentedKey, requireKey } from './billing.js';
import { SandboxError } from './errors.js';
import type { KeyRecord } from './state.js';
import type { SandboxContext, SandboxEnv } from './types.js';
import { isRecord, roundUsd, sha256Hex } from './util.js';

/**
 * The accountless payment challenge (spec 1 §7.3, GAPS "Accountless payment"). A quote is bound to
 * method, path, body hash, amount and expiry, and is single-use. Exact schemes replay the request
 * with `X-PAYMENT: base64({paymentId})`; the sandbox accepts any payload naming a live quote.
 */
interface Quote {
  paymentId: string;
  requestHash: string;
  amountUsd: number;
  expiresAt: number;
  used: boolean;
}

const QUOTE_TTL_MS = 10 * 60_000;
const PAY_TO_EVM = '0x5a4d0000000000000000000000000000005a4d00';
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

export type Payer = { kind: 'key'; record: KeyRecord } | { kind: 'x402'; paymentId: string };

/** A key as usual; without one, a paid replay (`X-PAYMENT`) or, with `x-x402: true`, a 402 quote. */
export function keyOrPayment(c: Context<SandboxEnv>, ctx: SandboxContext, priceUsd: number): Payer {
  if (presentedKey(c)) return { kind: 'key', record: requireKey(c, ctx) };
  const quotes = ctx.state.collection<Quote>('x402-quotes');
  const hash = requestHash(c);
  const payment = c.req.header('x-payment');
  if (payment) {
    const quote = quotes.get(paymentIdOf(payment) ?? '');
    if (!quote || quote.used || quote.expiresAt < ctx.now() || quote.requestHash !== hash) {
      throw new SandboxError(
        402,
        'Payment is unknown, used, expired, or for a different request; ask for a new quote.',
        {
          code: 'invalid_payment',
        },
      );
    }
    quote.used = true;
    const receipt = { success: true, hash: `0x${sha256Hex(quote.paymentId)}`, network: 'base' };
    c.header('X-PAYMENT-RESPONSE', Buffer.from(JSON.stringify(receipt)).toString('base64'));
    return { kind: 'x402', paymentId: quote.paymentId };
  }
  if (c.req.header('x-x402')?.toLowerCase() !== 'true') throw missingKeyError();
  const quote: Quote = {
    paymentId: `pay_${sha256Hex(`${hash}|${c.get('seq')}`).slice(0, 24)}`,
    requestHash: hash,
    amountUsd: roundUsd(priceUsd),
    expiresAt: ctx.now() + QUOTE_TTL_MS,
    used: false,
  };
  quotes.set(quote.paymentId, quote);
  throw new SandboxError(402, 'Payment required', {
    body: challenge(new URL(c.req.url).origin, c.req.url, quote),
  });
}

function requestHash(c: Context<SandboxEnv>): string {
  return `sha256:${sha256Hex(`${c.req.method}\n${c.req.path}\n${sha256Hex(c.get('bodyText'))}`)}`;
}

function paymentIdOf(header: string): string | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    if (isRecord(payload) && typeof payload.paymentId === 'string') return payload.paymentId;
  } catch {
    // Not base64 JSON: treated as an unknown payment.
  }
  return undefined;
}

function challenge(origin: string, resource: string, quote: Quote): Record<string, unknown> {
  const { paymentId, amountUsd } = quote;
  const expiresAt = new Date(quote.expiresAt).toISOString();
  const statusUrl = `${origin}/api/x402/status/${paymentId}`;
  const completeUrl = `${origin}/api/x402/complete/${paymentId}`;
  const usd = String(amountUsd);
  const usdcUnits = String(Math.ceil(amountUsd * 1e6));
  const sats = Math.max(1, Math.ceil(amountUsd * 1500));
  const common = { amountUsd: usd, paymentId, expiresAt };
  return {
    error: {
      type: 'payment_required',
      code: 'insufficient_quota',
      message: `Payment of ${usd} USD required.`,
    },
    payment: {
      version: 1,
      paymentId,
      requestHash: quote.requestHash,
      expiresAt,
      amountUsd: usd,
      statusUrl,
      completeUrl,
      accepted: [
        {
          scheme: 'x402-exact',
          protocolScheme: 'exact',
          network: 'base',
          amount: usdcUnits,
          amountFormatted: `${usd} USDC`,
          payTo: PAY_TO_EVM,
          asset: USDC_BASE,
          ...common,
        },
        {
          scheme: 'base-usdc',
          protocolScheme: 'transfer',
          network: 'base',
          amount: usdcUnits,
          amountFormatted: `${usd} USDC`,
          payTo: PAY_TO_EVM,
          asset: USDC_BASE,
          statusUrl,
          completeUrl,
          ...common,
        },
        {
          scheme: 'nano',
          protocolScheme: 'transfer',
          network: 'nano',
          amount: usd,
          amountFormatted: `${usd} XNO`,
          payTo: 'nano_3sandbox1111111111111111111111111111111111111111111111111',
          statusUrl,
          completeUrl,
          ...common,
        },
        {
          scheme: 'lightning-l402',
          protocolScheme: 'l402',
          network: 'lightning',
          amount: String(sats),
          amountFormatted: `${sats} sats`,
          payTo: 'sandbox-node',
          invoice: `lnbcsandbox${sats}n1${paymentId}`,
          paymentHash: sha256Hex(`invoice|${paymentId}`),
          l402Token: Buffer.from(paymentId).toString('base64url'),
          ...common,
        },
      ],
    },
    x402Version: 1,
    accepts: [
      {
        scheme: 'exact',
        network: 'base',
        maxAmountRequired: usdcUnits,
        resource,
        description: 'Sandbox paid request',
        mimeType: 'application/json',
        payTo: PAY_TO_EVM,
        maxTimeoutSeconds: QUOTE_TTL_MS / 1000,
        asset: USDC_BASE,
      },
    ],
  };
}
