import { z } from 'zod';
import { readPricing } from '../../src/http/pricing.js';
import { defineTool } from '../../src/mcp/define-tool.js';

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

export default defineTool({
  name: 'web_search',
  title: 'Search the web',
  description: 'Live web search: ranked results (title, url, snippet) or a sourced answer. Paid per search.',
  toolset: 'search',
  credential: 'api_key',
  input: z.object({
    query: z.string().min(1),
    output: z.enum(['searchResults', 'sourcedAnswer', 'structured']).default('searchResults'),
    include_domains: z.array(z.string()).optional(),
    exclude_domains: z.array(z.string()).optional(),
    from_date: z.string().optional().describe('YYYY-MM-DD, also to_date'),
    to_date: z.string().optional(),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  output: z.object({
    query: z.string(),
    answer: z.string().optional(),
    results: z.array(
      z.object({ title: z.string().optional(), url: z.string(), snippet: z.string().optional() }),
    ),
    structured: z.unknown().optional(),
    cost: z.number().optional(),
    request_id: z.string().optional(),
  }),
  nature: 'spend',
  async run(args, { api }) {
    const { data, requestId } = await api.request({
      method: 'POST',
      path: '/api/web',
      body: {
        query: args.query,
        outputType: args.output,
        includeDomains: args.include_domains,
        excludeDomains: args.exclude_domains,
        fromDate: args.from_date,
        toDate: args.to_date,
      },
      schema: Reply,
    });
    const raw =
      data.results ??
      data.searchResults ??
      data.sources ??
      (Array.isArray(data.data) ? z.array(Result).parse(data.data) : []);
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
  },
  spent: (r) => r.cost,
  text: (r) =>
    [
      r.answer,
      ...r.results.map(
        (x, i) => `${i + 1}. ${x.title ?? x.url} — ${x.url}${x.snippet ? `\n   ${x.snippet}` : ''}`,
      ),
    ]
      .filter(Boolean)
      .join('\n'),
});
