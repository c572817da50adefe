import { z } from 'zod';
import { ApiError, ConflictError, REPORT_UPSTREAM, UpstreamInvalidError } from '../../src/errors.js';
import { followJob } from '../../src/jobs/follow.js';
import type { Step } from '../../src/jobs/wait.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { withNewQuote } from '../../src/payments/accountless.js';
import { KIND, nextFor, type StoredQuote } from '../../src/payments/quotes.js';
import type { BytesResponse } from '../../src/upstream/client.js';

/**
 * Polling rails (`nano`, `base-usdc`): the person pays an address; `statusUrl` says when the
 * payment arrived, then `completeUrl` makes the platform replay the stored request once. The
 * wait is the one waiting machine's (bounded, with progress and cancellation).
 */
const Status = z.looseObject({ status: z.string().optional(), paid: z.boolean().optional() });
type Settled = 'paid' | 'used' | 'expired';

export type Polled = { done: true; reply: BytesResponse } | { done: false; message?: string };

export async function completeByPolling(
  ctx: ToolContext,
  quote: StoredQuote,
  maxWaitS: number,
): Promise<Polled> {
  const statusUrl = onPlatform(ctx, quote.status_url, 'statusUrl');
  const completeUrl = onPlatform(ctx, quote.complete_url, 'completeUrl');
  const outcome = await followJob<Settled>(ctx, {
    id: quote.quote_id,
    kind: KIND,
    next: nextFor(quote.quote_id),
    maxWaitS,
    startMessage: `waiting for payment of ${quote.amount_usd} USD (quote ${quote.quote_id})`,
    async poll(): Promise<Step<Settled>> {
      const { data, retryAfterMs } = await ctx.api.request({
        method: 'GET',
        path: statusUrl,
        credential: 'none',
        schema: Status,
      });
      const status = data.status?.toLowerCase();
      if (status === 'completed' || status === 'used') return { done: true, value: 'used' };
      if (status === 'expired') return { done: true, value: 'expired' };
      if (status === 'paid' || data.paid === true) return { done: true, value: 'paid' };
      return {
        done: false,
        state: 'queued',
        status: status ?? 'pending',
        message: `waiting for payment of ${quote.amount_usd} USD (quote ${quote.quote_id}, until ${quote.expires_at})`,
        retryAfterMs,
      };
    },
  });
  if (!outcome.done) return { done: false, message: outcome.last?.message };
  if (outcome.value === 'used') {
    return withNewQuote(
      ctx,
      quote,
      `Quote ${quote.quote_id} already paid for its call; a quote pays once.`,
      'payment_already_used',
    );
  }
  if (outcome.value === 'expired') {
    return withNewQuote(
      ctx,
      quote,
      `Quote ${quote.quote_id} expired at ${quote.expires_at} unpaid.`,
      'payment_expired',
    );
  }
  ctx.progress.report(`payment received; completing the call (quote ${quote.quote_id})`);
  try {
    const reply = await ctx.api.bytes({ method: 'POST', path: completeUrl, credential: 'none' });
    return { done: true, reply };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const code = error.upstreamCode;
    // Paid on the status route but not yet settled for completion: still waiting, not a failure.
    if (code === 'payment_pending') return { done: false, message: error.message };
    if (code === 'payment_already_used' || code === 'payment_expired' || code === 'payment_not_found') {
      return withNewQuote(ctx, quote, error.message, code);
    }
    if (code === 'payment_rail_mismatch') {
      throw new ConflictError(error.message, {
        status: error.status,
        requestId: error.requestId,
        upstreamCode: code,
        fix: `Call x402_complete with quote_id "${quote.quote_id}" and the preimage (lightning) or x_payment (exact rail) the wallet showed.`,
      });
    }
    throw error;
  }
}

/** Status and completion URLs come from the platform's quote; they are only ever called on its own host. */
function onPlatform(ctx: ToolContext, url: string | undefined, field: string): string {
  if (!url) {
    throw new UpstreamInvalidError(`The quote has no ${field}, so a polling rail cannot be finished.`, {
      fix: 'Pay with the lightning-l402 rail (pass preimage) or an exact rail (pass x_payment) instead.',
    });
  }
  const base = new URL(ctx.api.baseUrl);
  const target = URL.canParse(url) ? new URL(url) : new URL(url, base);
  if (target.origin !== base.origin) {
    throw new UpstreamInvalidError(
      `The quote's ${field} points to another host (${target.host}); it was not called.`,
      {
        fix: REPORT_UPSTREAM,
      },
    );
  }
  return target.toString();
}
