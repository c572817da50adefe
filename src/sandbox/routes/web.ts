import type { Hono } from 'hono';
import { charge } from '../billing.js';
import { jsonBody, optionalNumber, optionalString } from '../body.js';
import { PRICING_FIELD } from '../constants.js';
import { badRequest } from '../errors.js';
import { type SearchResult, search } from '../search.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { roundUsd } from '../util.js';
import { keyOrPayment } from '../x402.js';

const OUTPUT_TYPES = ['searchResults', 'sourcedAnswer', 'structured'] as const;
/** `standard` is the value spec 2 §4.3 shows; `deep` is the ten-times-dearer variant it prices. */
const DEPTHS = ['standard', 'deep'] as const;

/** `structuredOutputSchema`: a JSON schema as a string, required for structured output (GAPS). */
function structuredSchema(body: Record<string, unknown>): Record<string, unknown> {
  const text = body.structuredOutputSchema;
  if (text === undefined || text === null) {
    throw badRequest(
      '`structuredOutputSchema` (a JSON schema as a string) is required for outputType structured.',
      'missing_required_parameter',
      'structuredOutputSchema',
    );
  }
  let schema: unknown;
  try {
    schema = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    schema = undefined;
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw badRequest(
      '`structuredOutputSchema` must be a JSON schema object as a string.',
      'invalid_json_schema',
      'structuredOutputSchema',
    );
  }
  return schema as Record<string, unknown>;
}
/** Standard search price (spec 2 §4.3); the deep variant costs ten times more. */
export const WEB_SEARCH_USD = 0.006;
export const WEB_SEARCH_DEEP_USD = 0.06;

/** Web search (spec 2 §4.3): deterministic results; accountless quote with `x-x402: true`. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.post('/api/web', (c) => {
    const body = jsonBody(c);
    const query = typeof body.query === 'string' ? body.query.trim() : '';
    if (!query) throw badRequest('`query` is required.', 'missing_required_parameter', 'query');
    const outputType =
      optionalString(body, 'outputType', OUTPUT_TYPES) ??
      optionalString(body, 'output_type', OUTPUT_TYPES) ??
      'searchResults';
    const depth = optionalString(body, 'depth', DEPTHS) ?? 'standard';
    const schema = outputType === 'structured' ? structuredSchema(body) : undefined;
    const count = optionalNumber(body, 'maxResults', { min: 1, max: 20, integer: true }) ?? 5;
    const results = search(query, {
      count,
      includeDomains: domains(body, 'includeDomains'),
      excludeDomains: domains(body, 'excludeDomains'),
      fromDate: date(body, 'fromDate'),
      toDate: date(body, 'toDate'),
    });
    const price = depth === 'deep' ? WEB_SEARCH_DEEP_USD : WEB_SEARCH_USD;
    const payer = keyOrPayment(c, ctx, price);
    if (payer.kind === 'key') charge(ctx, payer.record, price);
    const pricing = {
      amount: price,
      currency: 'USD',
      cost: price,
      paymentSource: payer.kind === 'key' ? 'USD' : 'x402',
    };
    const common = { query, outputType, depth, cost: roundUsd(price), [PRICING_FIELD]: pricing };
    // The sourced answer comes nested under `data`, with the request told back in `metadata` (the
    // platform's reference, issue 32; GAPS "web.search").
    if (outputType === 'sourcedAnswer')
      return c.json({
        data: { answer: answerOf(query, results), sources: sourcesOf(results) },
        metadata: {
          query,
          depth,
          outputType,
          timestamp: new Date(ctx.now()).toISOString(),
          cost: roundUsd(price),
        },
        [PRICING_FIELD]: pricing,
      });
    if (outputType === 'structured')
      return c.json({
        ...common,
        structured: structuredOf(query, results, schema),
        sources: sourcesOf(results),
      });
    return c.json({ ...common, results });
  });
}

function domains(body: Record<string, unknown>, name: string): string[] | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((d) => typeof d === 'string')) {
    throw badRequest(`\`${name}\` must be an array of domain names.`, 'invalid_parameter_value', name);
  }
  return value;
}

function date(body: Record<string, unknown>, name: string): string | undefined {
  const value = optionalString(body, name);
  if (value !== undefined && Number.isNaN(Date.parse(value))) {
    throw badRequest(`\`${name}\` must be a date such as 2025-01-31.`, 'invalid_parameter_value', name);
  }
  return value;
}

const sourcesOf = (results: SearchResult[]) =>
  results.map(({ title, url, snippet }) => ({ title, url, snippet }));

function answerOf(query: string, results: SearchResult[]): string {
  if (results.length === 0) return `No sources matched "${query}" with these filters.`;
  const cites = results
    .slice(0, 3)
    .map((_, i) => `[${i + 1}]`)
    .join('');
  return `According to ${results.length} sources, "${query}" is covered in the sandbox's fixed results ${cites}.`;
}

/** The fixed answer, narrowed to the schema's properties when it names some (by their JSON type). */
function structuredOf(
  query: string,
  results: SearchResult[],
  schema: Record<string, unknown> = {},
): Record<string, unknown> {
  const full: Record<string, unknown> = {
    topic: query,
    summary: answerOf(query, results),
    keyPoints: results.slice(0, 3).map((r) => r.snippet),
    domains: [...new Set(results.map((r) => r.domain))],
  };
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return full;
  const byType: Record<string, unknown> = {
    string: full.summary,
    array: full.keyPoints,
    number: results.length,
    integer: results.length,
    boolean: results.length > 0,
  };
  return Object.fromEntries(
    Object.entries(properties as Record<string, { type?: string }>).map(([name, spec]) => [
      name,
      full[name] ?? byType[spec?.type ?? 'string'] ?? full.summary,
    ]),
  );
}
