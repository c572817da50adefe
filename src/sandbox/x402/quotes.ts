import type { Context } from 'hono';
import type { OriginalRequest, SandboxContext, SandboxEnv } from '../types.js';
import { sha256Hex } from '../util.js';
import type { Rail } from './rails.js';

/**
 * Accountless quotes (spec 1 §7.3, GAPS "Accountless payment"): each is bound to the method, path
 * and body hash of the request it prices, to its amount and expiry, and settles one call only.
 */
export const QUOTE_TTL_MS = 10 * 60_000;

export type QuoteStatus = 'pending' | 'paid' | 'completed' | 'expired';

export interface Quote {
  paymentId: string;
  requestHash: string;
  /** The priced request, kept so `completeUrl` can replay it byte for byte. */
  request: OriginalRequest;
  origin: string;
  amountUsd: number;
  createdAt: number;
  expiresAt: number;
  /** The rail a wallet paid on (polling rails and lightning), once paid. */
  paidWith?: Rail;
  paidAt?: number;
  /** When the call this quote paid for was served; a quote settles one call only. */
  completedAt?: number;
}

/** A sandbox left running for days keeps only the newest quotes. */
const MAX_QUOTES = 10_000;

export const quoteStore = (ctx: SandboxContext): Map<string, Quote> =>
  ctx.state.collection<Quote>('x402.quotes');

export function keepQuote(ctx: SandboxContext, quote: Quote): void {
  const store = quoteStore(ctx);
  store.set(quote.paymentId, quote);
  // Maps iterate in insertion order, so the first key is the oldest quote.
  if (store.size > MAX_QUOTES) store.delete(store.keys().next().value ?? '');
}

export function quoteStatus(quote: Quote, now: number): QuoteStatus {
  if (quote.completedAt !== undefined) return 'completed';
  if (quote.paidAt !== undefined) return 'paid';
  return quote.expiresAt <= now ? 'expired' : 'pending';
}

/** The request as the client sent it: the data API's original when this route was forwarded to. */
export function originalRequest(c: Context<SandboxEnv>): OriginalRequest {
  const forwarded = c.env?.forwardedFrom;
  if (forwarded) return forwarded;
  return {
    method: c.req.method,
    path: c.req.path,
    search: new URL(c.req.url).search,
    bodyText: c.get('bodyText'),
    contentType: c.req.header('content-type'),
  };
}

/** `sha256:<hex>` over method, path and the body's own sha256. */
export const requestHashOf = (request: OriginalRequest): string =>
  `sha256:${sha256Hex(`${request.method}\n${request.path}\n${sha256Hex(request.bodyText)}`)}`;
