import { z } from 'zod';
import type { BytesResponse } from '../../src/http/client.js';
import { readPricing } from '../../src/http/pricing.js';
import { parseJsonReply, validateReply } from '../../src/http/validate.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { callAccountless, goesAccountless } from '../../src/payments/accountless.js';
import { PaymentRequest, paymentText } from '../../src/payments/challenge.js';

const Result = z.looseObject({
  title: z.string().nullish(),
  url: z.string(),
  snippet: z.string().nullish(),
  content: z.string().nullish(),
  publishedDate: z.string().nullish(),
});

/** The reply shape is not specified beyond its output types; the usual container keys are accepted. */
const Reply = z.looseObject({
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
type SearchArgs = z.infer<typeof SearchArgs>;

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
type SearchOut = z.infer<typeof SearchOut>;

const PATH = '/api/web';

export default defineTool({
  name: 'web_search',
  title: 'Search the web',
  description:
    'Live web search: ranked results (title, url, snippet) or a sourced answer. Paid per search; no key: a quote.',
  toolset: 'search',
  credential: 'optional',
  input: SearchArgs,
  output: SearchOut,
  nature: 'spend',
  async run(args, ctx) {
    const body = {
      query: args.query,
      outputType: args.output,
      includeDomains: args.include_domains,
      excludeDomains: args.exclude_domains,
      fromDate: args.from_date,
      toDate: args.to_date,
    };
    if (goesAccountless(ctx, args.payment)) {
      const asked = await callAccountless(ctx, { tool: 'web_search', render: args, path: PATH, body });
      return asked.kind === 'quote'
        ? { query: args.query, results: [], payment: asked.payment }
        : searchFromBytes(args, asked.reply);
    }
    const { data, requestId } = await ctx.api.request({ method: 'POST', path: PATH, body, schema: Reply });
    return searchResult(args, data, requestId);
  },
  spent: (r) => r.cost,
  text: searchText,
});

/** A reply read as bytes (an accountless call, or its paid replay). */
export function searchFromBytes(args: SearchArgs, reply: BytesResponse): SearchOut {
  const json = parseJsonReply(reply.data.toString('utf8'), reply.requestId);
  return searchResult(args, validateReply(Reply, json, reply.requestId, PATH), reply.requestId);
}

function searchResult(
  args: SearchArgs,
  data: z.infer<typeof Reply>,
  requestId: string | undefined,
): SearchOut {
  const raw =
    data.results ??
    data.searchResults ??
    data.sources ??
    (Array.isArray(data.data) ? validateReply(z.array(Result), data.data, requestId, PATH) : []);
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
