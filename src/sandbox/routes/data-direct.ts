import type { Context, Hono } from 'hono';
import { charge, requireKey } from '../billing.js';
import { jsonBody } from '../body.js';
import { PRICING_FIELD } from '../constants.js';
import { DATA_ENDPOINTS, type DataEndpoint } from '../data/catalog.js';
import type { DirectHandler } from '../data/direct.js';
import { DIRECT_HANDLERS } from '../data/handlers.js';
import { streamJson } from '../data/stream.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { roundUsd } from '../util.js';
import { keyOrPayment } from '../x402.js';

/** Direct routes that also take an accountless quote (spec 1 §4.5: web search and URL scraping). */
const ACCOUNTLESS = new Set(['url.scrape']);

/**
 * The direct routes the data API wraps (spec 1 §4.5; GAPS "Data API inputs"). Legacy routes, so
 * their errors use the legacy envelope; each validates its own input, bills its own price, and
 * answers 402 when the balance is short.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  for (const entry of DATA_ENDPOINTS) {
    const direct = DIRECT_HANDLERS[entry.id];
    if (!direct) continue;
    ctx.setEnvelope(entry.direct, 'legacy');
    const paths = entry.subpaths ? [entry.direct, `${entry.direct}/*`] : [entry.direct];
    app.on([...entry.methods], paths, (c) => serve(c, ctx, entry, direct));
  }
}

function serve(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  entry: DataEndpoint,
  direct: DirectHandler,
): Response {
  const accountless = ACCOUNTLESS.has(entry.id);
  // Paid-per-call routes validate first, so a quote is only ever made for a request that can run.
  const key = accountless ? undefined : requireKey(c, ctx);
  const input = c.req.method === 'GET' ? Object.fromEntries(new URL(c.req.url).searchParams) : jsonBody(c);
  const rest = c.req.path.slice(entry.direct.length).replace(/^\/+/, '');
  const served = direct.serve(input, { rest });
  const cost = roundUsd(served.costUsd);
  let paymentSource = 'USD';
  if (key) {
    if (cost > 0) charge(ctx, key, cost);
  } else {
    const payer = keyOrPayment(c, ctx, cost);
    if (payer.kind === 'key') charge(ctx, payer.record, cost);
    else paymentSource = 'x402';
  }
  const pricing = {
    amount: cost,
    currency: 'USD',
    cost,
    paymentSource,
    ...(served.credits === undefined ? {} : { credits: served.credits }),
  };
  const body = { ...served.body, cost, [PRICING_FIELD]: pricing };
  return served.streamKey ? streamJson(c, ctx, body, served.streamKey) : c.json(body);
}
