import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import { CONTROL_PREFIX } from '../constants.js';
import { badRequest, SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { completeUrlOf, statusUrlOf, usdString } from '../x402/challenge.js';
import { PAYABLE_ROUTES } from '../x402/payable.js';
import { type Quote, quoteStatus, quoteStore } from '../x402/quotes.js';
import {
  EXACT_RAILS,
  l402TokenOf,
  POLLING_RAILS,
  paymentHashOf,
  preimageOf,
  RAILS,
  walletPayment,
} from '../x402/rails.js';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/**
 * Accountless payment routes (spec 1 §7.3, GAPS "Accountless payment"): the payable-route list,
 * a quote's status, its completion (the stored request replayed once paid), and the sandbox
 * wallet that pays a quote on any rail.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  // Each row names its route in `endpoint` and the rails it takes in `schemes` (the platform's
  // reference, issue 32).
  app.get('/api/v1/x402/endpoints', (c) => {
    const origin = new URL(c.req.url).origin;
    return c.json({
      object: 'list',
      x402Version: 1,
      quote: { headers: { 'x-x402': 'true' }, credentials: 'none' },
      data: PAYABLE_ROUTES.map(({ path, ...route }) => ({
        ...route,
        endpoint: path,
        url: `${origin}${path}`,
        schemes: RAILS,
      })),
    });
  });

  app.get('/api/x402/status/:paymentId', (c) => c.json(statusOf(ctx, findQuote(c, ctx))));

  app.post('/api/x402/complete/:paymentId', async (c) => {
    const quote = findQuote(c, ctx);
    const status = quoteStatus(quote, ctx.now());
    if (status !== 'paid') throw notPayable(quote, status);
    if (quote.paidWith === 'lightning-l402') {
      throw new SandboxError(
        409,
        'This quote was paid over lightning: replay the original request with `Authorization: L402 <token>:<preimage>`.',
        {
          code: 'payment_rail_mismatch',
        },
      );
    }
    const { method, path, search, bodyText, contentType } = quote.request;
    const replay = new Request(`${quote.origin}${path}${search}`, {
      method,
      headers: contentType ? { 'content-type': contentType } : {},
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: bodyText }),
    });
    const res = await app.fetch(replay, { ...c.env, x402Paid: quote.paymentId });
    const headers = new Headers(res.headers);
    headers.set('X-Request-ID', c.get('requestId'));
    return new Response(res.body, { status: res.status, headers });
  });

  const Pay = z.strictObject({ paymentId: z.string(), scheme: z.enum(RAILS).default('base-usdc') });

  /** The sandbox wallet: pays a quote on one rail and hands back what a real wallet would show. */
  app.post(`${CONTROL_PREFIX}/x402/pay`, (c) => {
    const parsed = Pay.safeParse(jsonBody(c));
    if (!parsed.success)
      throw badRequest(`Invalid payment: ${z.prettifyError(parsed.error)}`, 'invalid_parameter_value');
    const { paymentId, scheme } = parsed.data;
    const quote = quoteStore(ctx).get(paymentId);
    if (!quote) throw notFound(paymentId);
    const status = quoteStatus(quote, ctx.now());
    if (status === 'completed' || status === 'expired') throw notPayable(quote, status);
    if (quote.paidWith && quote.paidWith !== scheme) {
      throw new SandboxError(409, `Quote ${paymentId} is already paid with ${quote.paidWith}.`, {
        code: 'payment_already_paid',
      });
    }
    if (EXACT_RAILS.includes(scheme)) {
      // Exact rails settle when the replay carries the signed payload, not before.
      return c.json({
        paymentId,
        scheme,
        status,
        xPayment: walletPayment(paymentId, scheme, quote.amountUsd),
      });
    }
    quote.paidAt ??= ctx.now();
    quote.paidWith = scheme;
    if (POLLING_RAILS.includes(scheme)) return c.json({ paymentId, scheme, status: 'paid' });
    const preimage = preimageOf(paymentId);
    return c.json({
      paymentId,
      scheme,
      status: 'paid',
      preimage,
      paymentHash: paymentHashOf(preimage),
      authorization: `L402 ${l402TokenOf(paymentId)}:${preimage}`,
    });
  });

  app.get(`${CONTROL_PREFIX}/x402/quotes/:paymentId`, (c) => {
    const quote = findQuote(c, ctx);
    return c.json({ ...statusOf(ctx, quote), request: quote.request, preimage: preimageOf(quote.paymentId) });
  });
}

function findQuote(c: Context<SandboxEnv>, ctx: SandboxContext): Quote {
  const id = c.req.param('paymentId') ?? '';
  const quote = quoteStore(ctx).get(id);
  if (!quote) throw notFound(id);
  return quote;
}

const notFound = (id: string) =>
  new SandboxError(404, `No quote ${id}; ask for a new one by sending the request with \`x-x402: true\`.`, {
    code: 'payment_not_found',
  });

function notPayable(quote: Quote, status: string): SandboxError {
  if (status === 'completed') {
    return new SandboxError(409, `Quote ${quote.paymentId} already paid for its call; ask for a new quote.`, {
      code: 'payment_already_used',
    });
  }
  if (status === 'expired') {
    return new SandboxError(
      410,
      `Quote ${quote.paymentId} expired at ${new Date(quote.expiresAt).toISOString()} unpaid; ask for a new quote.`,
      { code: 'payment_expired' },
    );
  }
  return new SandboxError(
    402,
    `Quote ${quote.paymentId} is not paid yet; poll ${statusUrlOf(quote)} until its status is paid.`,
    {
      code: 'payment_pending',
    },
  );
}

function statusOf(ctx: SandboxContext, quote: Quote): Record<string, unknown> {
  const status = quoteStatus(quote, ctx.now());
  return {
    paymentId: quote.paymentId,
    status,
    paid: status === 'paid' || status === 'completed',
    amountUsd: usdString(quote.amountUsd),
    requestHash: quote.requestHash,
    expiresAt: iso(quote.expiresAt),
    scheme: quote.paidWith ?? null,
    paidAt: iso(quote.paidAt),
    completedAt: iso(quote.completedAt),
    statusUrl: statusUrlOf(quote),
    completeUrl: completeUrlOf(quote),
  };
}
