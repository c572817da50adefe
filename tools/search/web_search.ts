import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { callAccountless, goesAccountless } from '../../src/payments/accountless.js';
import {
  ACCOUNTLESS_SEARCH_PATH,
  Reply,
  SEARCH_PATH,
  SearchArgs,
  SearchOut,
  searchBody,
  searchFromBytes,
  searchResult,
  searchText,
} from './search.js';

/** Spec 2 §4.3: a search costs 0.006 USD. */
const WEB_SEARCH_USD = 0.006;

export default defineTool({
  name: 'web_search',
  title: 'Search the web',
  description:
    "Search or look up the web, internet, news online, like Google: facts, today's news, articles, prices; sourced answer. Paid; no key: x402 quote. One known page: data_call.",
  toolset: 'search',
  alwaysLoad: true,
  view: 'payment',
  credential: 'optional',
  input: SearchArgs,
  output: SearchOut,
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    const body = searchBody(args);
    if (goesAccountless(ctx, args.payment)) {
      const asked = await callAccountless(ctx, {
        tool: 'web_search',
        render: args,
        path: ACCOUNTLESS_SEARCH_PATH,
        body,
      });
      return asked.kind === 'quote'
        ? { query: args.query, results: [], payment: asked.payment }
        : searchFromBytes(args, asked.reply);
    }
    const { data, requestId } = await ctx.api.request({
      method: 'POST',
      path: SEARCH_PATH,
      body,
      schema: Reply,
    });
    return searchResult(args, data, requestId);
  },
  cost: {
    // A quote costs nothing; a search costs the platform's listed price (spec 2 §4.3).
    price: (args, ctx) =>
      goesAccountless(ctx, args.payment)
        ? { usd: 0, basis: 'a payment quote costs nothing' }
        : { usd: WEB_SEARCH_USD, basis: `the platform's price of ${WEB_SEARCH_USD} USD per search` },
    // A quote is free: x402_complete counts what is paid.
    spent: (r) => (r.payment ? 0 : r.cost),
  },
  untrusted: ['answer', 'results', 'structured'],
  text: searchText,
});
