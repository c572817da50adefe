import { z } from 'zod';
import { PaymentRequest, paymentText } from '../../src/payments/challenge.js';
import type { BytesResponse } from '../../src/upstream/client.js';
import { readPricing } from '../../src/upstream/pricing.js';
import { parseJsonReply, validateReply } from '../../src/upstream/validate.js';

/** web_search's arguments, reply and result, shared with x402_pay's replay of a paid search. */
const Result = z.looseObject({
  title: z.string().nullish(),
  url: z.string(),
  snippet: z.string().nullish(),
  content: z.string().nullish(),
  publishedDate: z.string().nullish(),
});

/** The reply shape is not specified beyond its output types; the usual container keys are accepted. */
export const Reply = z.looseObject({
  results: z.array(Result).optional(),
  searchResults: z.array(Result).optional(),
  data: z.unknown().optional(),
  answer: z.string().optional(),
  sources: z.array(Result).optional(),
  cost: z.number().optional(),
});

export const SearchArgs = z.object({
  query: z.string().min(1),
  output: z.enum(['searchResults', 'sourcedAnswer', 'structured']).default('searchResults'),
  include_domains: z.array(z.string()).optional(),
  exclude_domains: z.array(z.string()).optional(),
  from_date: z.string().optional().describe('YYYY-MM-DD, also to_date'),
  to_date: z.string().optional(),
  limit: z.number().int().min(1).max(50).default(10),
  payment: z.enum(['x402']).optional(),
});
export type SearchArgs = z.infer<typeof SearchArgs>;

export const SearchOut = z.object({
  query: z.string(),
  answer: z.string().optional(),
  results: z.array(
    z.object({ title: z.string().optional(), url: z.string(), snippet: z.string().optional() }),
  ),
  structured: z.unknown().optional(),
  cost: z.number().optional(),
  request_id: z.string().optional(),
  payment: z.unknown().optional(),
});
export type SearchOut = z.infer<typeof SearchOut>;

export const SEARCH_PATH = '/api/web';

/** A reply read as bytes (an accountless call, or its paid replay). */
export function searchFromBytes(args: SearchArgs, reply: BytesResponse): SearchOut {
  const json = parseJsonReply(reply.data.toString('utf8'), reply.requestId);
  return searchResult(args, validateReply(Reply, json, reply.requestId, SEARCH_PATH), reply.requestId);
}

export function searchResult(
  args: SearchArgs,
  data: z.infer<typeof Reply>,
  requestId: string | undefined,
): SearchOut {
  const raw =
    data.results ??
    data.searchResults ??
    data.sources ??
    (Array.isArray(data.data) ? validateReply(z.array(Result), data.data, requestId, SEARCH_PATH) : []);
  const results = raw.slice(0, args.limit).map((r) => ({
    ...(r.title ? { title: r.title } : {}),
    url: r.url,
    ...(r.snippet || r.content ? { snippet: (r.snippet ?? r.content ?? '').slice(0, 400) } : {}),
  }));
  const cost = data.cost ?? readPricing(data)?.cost ?? readPricing(data)?.amount;
  return {
    query: args.query,
    ...(data.answer ? { answer: data.answer } : {}),
    results,
    ...(args.output === 'structured' && data.data !== undefined ? { structured: data.data } : {}),
    ...(cost !== undefined ? { cost } : {}),
    request_id: requestId,
  };
}

export function searchText(r: SearchOut): string {
  const payment = PaymentRequest.safeParse(r.payment);
  if (payment.success) return paymentText(payment.data);
  return [
    r.answer,
    ...r.results.map(
      (x, i) => `${i + 1}. ${x.title ?? x.url} — ${x.url}${x.snippet ? `\n   ${x.snippet}` : ''}`,
    ),
  ]
    .filter(Boolean)
    .join('\n');
}
