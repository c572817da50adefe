import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { PaymentRequest, paymentText } from '../../src/payments/challenge.js';
import { toNumber } from '../../src/replies/number.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
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

const Cost = z.preprocess(toNumber, z.number().optional().catch(undefined));

/**
 * The sourced answer under `data` (`data.answer`, `data.sources[]`), as the platform's reference
 * shows it (issue 32); read only when `data` is an object.
 */
const Sourced = z.looseObject({
  answer: z.string().optional().catch(undefined),
  sources: z.unknown().optional(),
});

/**
 * The reply shape is not specified beyond its output types (GAPS: `{data, metadata: {cost, ...}}`,
 * older replies `results` / `answer`); the usual container keys are accepted and each result is
 * read on its own, so one odd result is left out and named instead of failing the search.
 */
export const Reply = z.looseObject({
  results: z.unknown().optional(),
  searchResults: z.unknown().optional(),
  data: z.unknown().optional(),
  answer: z.string().optional().catch(undefined),
  sources: z.unknown().optional(),
  structured: z.unknown().optional(),
  cost: Cost,
  metadata: z.looseObject({ cost: Cost }).optional().catch(undefined),
});

export const SearchArgs = z.object({
  query: z.string().min(1),
  output: z.enum(['searchResults', 'sourcedAnswer', 'structured']).default('searchResults'),
  schema: z.unknown().optional(),
  depth: z.enum(['standard', 'deep']).optional(),
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
  not_usable: z.string().optional(),
  cost: z.number().optional(),
  request_id: z.string().optional(),
  payment: z.unknown().optional(),
});
export type SearchOut = z.infer<typeof SearchOut>;

export const SEARCH_PATH = '/api/web';
/**
 * An accountless search is quoted on the data API's route (spec 1 §4.5, the platform's reference,
 * issue 32), which wraps `/api/web` with the same body and reply.
 */
export const ACCOUNTLESS_SEARCH_PATH = '/api/v1/data/web/search';

/**
 * The request body (spec 2 §4.3; GAPS "web.search"): `structuredOutputSchema` is a JSON schema as a
 * string, required for the structured output type, so it is checked here before anything is sent.
 */
export function searchBody(args: SearchArgs): Record<string, unknown> {
  return {
    query: args.query,
    outputType: args.output,
    ...(args.output === 'structured' ? { structuredOutputSchema: schemaText(args.schema) } : {}),
    ...(args.depth ? { depth: args.depth } : {}),
    includeDomains: args.include_domains,
    excludeDomains: args.exclude_domains,
    fromDate: args.from_date,
    toDate: args.to_date,
  };
}

function schemaText(schema: SearchArgs['schema']): string {
  if (schema === undefined) {
    throw new InputError(
      'output "structured" needs `schema`: the JSON schema of the answer. Nothing was sent.',
      {
        param: 'schema',
        fix: 'Pass schema, e.g. {"type":"object","properties":{"summary":{"type":"string"}}}.',
      },
    );
  }
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) return JSON.stringify(schema);
  try {
    const parsed: unknown = typeof schema === 'string' ? JSON.parse(schema) : undefined;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return schema as string;
  } catch {
    // Refused below.
  }
  throw new InputError('`schema` must be a JSON schema object (or its JSON text). Nothing was sent.', {
    param: 'schema',
  });
}

/** A reply read as bytes (an accountless call, or its paid replay). */
export function searchFromBytes(args: SearchArgs, reply: BytesResponse): SearchOut {
  const json = parseJsonReply(reply.data.toString('utf8'), reply.requestId, reply.status);
  return searchResult(
    args,
    validateReply(Reply, json, reply.requestId, SEARCH_PATH, reply.status),
    reply.requestId,
  );
}

export function searchResult(
  args: SearchArgs,
  data: z.infer<typeof Reply>,
  requestId: string | undefined,
): SearchOut {
  // A structured answer under `data` is the answer itself, not a sourced one.
  const nested = args.output === 'structured' ? undefined : Sourced.safeParse(data.data);
  const sourced = nested?.success ? nested.data : undefined;
  const answer = data.answer ?? sourced?.answer;
  const list =
    [data.results, data.searchResults, data.sources, sourced?.sources, data.data].find(Array.isArray) ?? [];
  const structured = args.output === 'structured' ? structuredOf(data) : undefined;
  // A structured answer may come as `data` itself; its elements are then not results.
  const parsed =
    list === data.data && structured === data.data
      ? { items: [], left_out: [] }
      : usableList(Result, list, { nameKeys: ['url', 'title'] });
  const notUsable = leftOutNote('result', parsed.left_out);
  const results = parsed.items.slice(0, args.limit).map((r) => ({
    ...(r.title ? { title: r.title } : {}),
    url: r.url,
    ...(r.snippet || r.content ? { snippet: (r.snippet ?? r.content ?? '').slice(0, 400) } : {}),
  }));
  const cost = data.cost ?? data.metadata?.cost ?? readPricing(data)?.cost ?? readPricing(data)?.amount;
  return {
    query: args.query,
    ...(answer ? { answer } : {}),
    results,
    ...(structured !== undefined ? { structured } : {}),
    ...(notUsable ? { not_usable: notUsable } : {}),
    ...(cost !== undefined ? { cost } : {}),
    request_id: requestId,
  };
}

/**
 * Where the structured answer sits is not shown: `structured` (the sandbox), else `data` when it is
 * not a list of results (GAPS shows `data`), else `output` / `result`.
 */
function structuredOf(data: z.infer<typeof Reply>): unknown {
  if (data.structured != null) return data.structured;
  const looksLikeResults =
    Array.isArray(data.data) && data.data.every((d) => typeof d === 'object' && d !== null && 'url' in d);
  if (data.data != null && !looksLikeResults) return data.data;
  return data.output ?? data.result ?? undefined;
}

export function searchText(r: SearchOut): string {
  const payment = PaymentRequest.safeParse(r.payment);
  if (payment.success) return paymentText(payment.data);
  return [
    r.answer,
    r.structured === undefined ? undefined : JSON.stringify(r.structured),
    ...r.results.map(
      (x, i) => `${i + 1}. ${x.title ?? x.url} — ${x.url}${x.snippet ? `\n   ${x.snippet}` : ''}`,
    ),
  ]
    .concat(r.not_usable ? [`(${r.not_usable}.)`] : [])
    .concat(r.cost !== undefined ? [`Cost: ${r.cost} USD`] : [])
    .filter(Boolean)
    .join('\n');
}
