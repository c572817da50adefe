import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ConflictError, InputError } from '../../src/errors.js';
import { defineTool, type ToolContext } from '../../src/mcp/define-tool.js';
import { sayNext } from '../../src/next-call.js';
import { replay, withNewQuote } from '../../src/payments/accountless.js';
import { GRACE_MS } from '../../src/payments/quote-file.js';
import { nextFor, quotesFor, type StoredQuote } from '../../src/payments/quotes.js';
import type { BytesResponse } from '../../src/upstream/client.js';
import { completeByPolling } from './polling.js';
import { rendererFor } from './renderers.js';

const Rendered = z.record(z.string(), z.unknown());
const Receipt = z.looseObject({
  success: z.boolean().optional(),
  hash: z.string().optional(),
  network: z.string().optional(),
});

export default defineTool({
  name: 'x402_complete',
  title: 'Finish a paid quote',
  description:
    'After paying a quote (USDC, Lightning invoice): waits for payment or replays with preimage or x_payment; returns the result.',
  toolset: 'payments',
  long: 'job',
  credential: 'none',
  input: z.object({
    quote_id: z.string(),
    preimage: z.string().optional(),
    x_payment: z.string().optional(),
    max_wait_s: z.number().default(50),
  }),
  output: z.object({
    status: z.enum(['completed', 'pending']),
    tool: z.string().optional(),
    result: z.unknown().optional(),
    receipt: z.unknown().optional(),
    next: z.string().optional(),
  }),
  nature: 'write',
  async run(args, ctx) {
    const quotes = quotesFor(ctx);
    const quote = await quotes.get(args.quote_id.trim());
    if (!quote) {
      throw new InputError(
        `No quote "${args.quote_id}" is kept by this server (quotes last until they expire).`,
        {
          fix: 'Call the tool that asked for it (data_call or web_search) again for a new quote.',
          param: 'quote_id',
        },
      );
    }
    if (args.preimage !== undefined && args.x_payment !== undefined) {
      throw new InputError('Pass preimage (lightning) or x_payment (exact rails), not both.', {
        param: 'x_payment',
      });
    }
    const renderer = rendererFor(quote.tool);
    if (quote.used_at) {
      await withNewQuote(
        ctx,
        quote,
        `Quote ${quote.quote_id} already paid for its call at ${quote.used_at}; a quote pays once.`,
        'payment_already_used',
      );
    }
    // Checked before anything is claimed or sent: a malformed proof is refused at once.
    const proof: Record<string, string> | undefined =
      args.preimage !== undefined
        ? { authorization: l402Authorization(quote, args.preimage) }
        : args.x_payment !== undefined
          ? { 'x-payment': exactPayment(quote, args.x_payment) }
          : undefined;
    const usd = Number(quote.amount_usd);
    // An exact payment is money this server moves: the budget may refuse it, unsent. A lightning or
    // address payment was already made by the person: never refused (that would lose it), counted.
    const reservation =
      args.x_payment !== undefined
        ? await ctx.budget.reserve({ usd, basis: `quote ${quote.quote_id}'s price` })
        : undefined;
    const holder = randomUUID();
    if (!(await ctx.jobs.claim(quote.quote_id, holder, claimMs(quote)))) {
      await reservation?.release();
      throw new ConflictError(
        `Quote ${quote.quote_id} is already being completed by another call; a quote pays once. Nothing was sent.`,
        { fix: `That call returns the result; orbit://jobs/${quote.quote_id} shows when it is done.` },
      );
    }
    let reply: BytesResponse;
    let receipt: z.infer<typeof Receipt> | undefined;
    try {
      if (proof) {
        reply = await replay(ctx, quote, proof);
        if (args.x_payment !== undefined) receipt = receiptOf(ctx, reply.headers['x-payment-response']);
      } else {
        const polled = await completeByPolling(ctx, quote, args.max_wait_s);
        if (!polled.done) {
          await ctx.jobs.unclaim(quote.quote_id, holder);
          return { status: 'pending' as const, next: sayNext(nextFor(quote.quote_id)) };
        }
        reply = polled.reply;
      }
    } catch (error) {
      await reservation?.release();
      await ctx.jobs.unclaim(quote.quote_id, holder);
      throw error;
    }
    // The claim stays held: this quote has paid for its call, on every replica.
    quotes.markUsed(quote);
    if (reservation) await reservation.settle(usd);
    else await ctx.budget.count(usd);
    const result = await renderer.render(ctx, quote.render, reply);
    return { status: 'completed' as const, tool: quote.tool, result, ...(receipt ? { receipt } : {}) };
  },
  // A paid replay of a web_search or data_call: what they fetched.
  untrusted: ['result'],
  text: (r) => {
    if (r.status === 'pending') return `Not paid yet. Once the person has paid, call ${r.next}.`;
    const receipt = Receipt.safeParse(r.receipt);
    const settled = receipt.success
      ? [receipt.data.network, receipt.data.hash].filter(Boolean).join(' ')
      : '';
    return `Paid${settled ? ` (${settled})` : ''}. ${r.tool ? rendererFor(r.tool).text(Rendered.parse(r.result)) : ''}`;
  },
  content: (r) => (r.tool ? rendererFor(r.tool).content(Rendered.parse(r.result)) : []),
});

/** A completion's claim outlives the quote (and the grace in which a late call is answered). */
function claimMs(quote: StoredQuote): number {
  return Math.max(60_000, Date.parse(quote.expires_at) - Date.now() + GRACE_MS);
}

/** `L402 <token>:<preimage>`, once the preimage is shown to be the invoice's (sha256 is its payment hash). */
function l402Authorization(quote: StoredQuote, raw: string): string {
  if (!quote.l402) {
    throw new InputError(`Quote ${quote.quote_id} offers no lightning rail.`, {
      fix: 'Pay one of its other rails; pass x_payment for an exact rail, or nothing for an address payment.',
      param: 'preimage',
    });
  }
  const preimage = raw.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(preimage)) {
    throw new InputError('`preimage` must be 64 hex characters (32 bytes); nothing was sent.', {
      fix: 'Copy the payment preimage the lightning wallet shows after paying the invoice.',
      param: 'preimage',
    });
  }
  const hash = createHash('sha256').update(Buffer.from(preimage, 'hex')).digest('hex');
  if (quote.l402.payment_hash && hash !== quote.l402.payment_hash.toLowerCase()) {
    throw new InputError(
      "This preimage is not the invoice's: its sha256 is not the payment hash. Nothing was sent.",
      {
        fix: `Pay the invoice of quote ${quote.quote_id} and pass the preimage the wallet shows for that payment.`,
        param: 'preimage',
      },
    );
  }
  return `L402 ${quote.l402.token}:${preimage}`;
}

function exactPayment(quote: StoredQuote, raw: string): string {
  const payload = raw.trim();
  if (!quote.exact) {
    throw new InputError(`Quote ${quote.quote_id} offers no exact rail.`, { param: 'x_payment' });
  }
  if (!payload || payload.length > 16_384 || !/^[A-Za-z0-9+/=_-]+$/.test(payload)) {
    throw new InputError(
      '`x_payment` must be the base64 X-PAYMENT payload the wallet produced; nothing was sent.',
      {
        fix: `Have the wallet sign a payment for quote ${quote.quote_id} on an exact rail and pass its X-PAYMENT value.`,
        param: 'x_payment',
      },
    );
  }
  return payload;
}

/** `X-PAYMENT-RESPONSE`: base64 JSON `{success, hash, network}` (GAPS "Accountless payment"). */
function receiptOf(ctx: ToolContext, header: string | undefined): z.infer<typeof Receipt> | undefined {
  if (!header) return undefined;
  try {
    const parsed = Receipt.safeParse(JSON.parse(Buffer.from(header, 'base64').toString('utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // Reported below.
  }
  ctx.log.warning('the X-PAYMENT-RESPONSE header of a paid replay could not be read');
  return undefined;
}
