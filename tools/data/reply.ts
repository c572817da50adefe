import { z } from 'zod';
import { ApiError, BadRequestError, withFix } from '../../src/errors.js';
import { mb } from '../../src/files/files.js';
import type { ExtraContent, ToolContext } from '../../src/mcp/define-tool.js';
import { readReply } from '../../src/replies/read.js';
import type { BytesResponse, OnBytes } from '../../src/upstream/client.js';
import { costFromHeaders, readPricing } from '../../src/upstream/pricing.js';
import { parseJsonReply, validateReply } from '../../src/upstream/validate.js';
import { type DataEntry, dataPath } from './shared.js';

/**
 * A data API reply as a tool result: the platform's body kept whole in structuredContent up to a
 * cap (bigger ones saved to a file and linked), a capped text form, the dispatch headers (matched
 * by pattern, never by the platform's word), the cost and the request id.
 */
const STRUCTURED_MAX_BYTES = 32 * 1024;
const TEXT_MAX_CHARS = 4_000;

export const DataOut = z.object({
  endpoint: z.string(),
  direct_endpoint: z.string().optional(),
  data: z.unknown().optional(),
  summary: z.string().optional(),
  file: z.string().optional(),
  cost: z.number().optional(),
  request_id: z.string().optional(),
  payment: z.unknown().optional(),
});
export type DataOut = z.infer<typeof DataOut>;

const DATA_HEADER = /^x-[a-z0-9]+-data-endpoint$/i;
const DIRECT_HEADER = /^x-[a-z0-9]+-direct-endpoint$/i;
const headerMatching = (headers: Record<string, string>, pattern: RegExp) =>
  Object.entries(headers).find(([name]) => pattern.test(name))?.[1];

/** Any JSON value; replies of the direct routes are objects, but the wrapper does not change them. */
const Body = z.unknown();

export async function renderDataReply(ctx: ToolContext, id: string, res: BytesResponse): Promise<DataOut> {
  const json = /json/i.test(res.contentType);
  const route = headerMatching(res.headers, DIRECT_HEADER);
  const data = json
    ? validateReply(
        Body,
        parseJsonReply(res.data.toString('utf8'), res.requestId, res.status),
        res.requestId,
        id,
        res.status,
      )
    : undefined;
  const fits = json && res.data.length <= STRUCTURED_MAX_BYTES;
  const saved = fits ? undefined : await ctx.files.save(res.data, { mimeType: res.contentType });
  const text = json ? JSON.stringify(data) : res.data.toString('utf8');
  const cost = costOf(data) ?? costFromHeaders(res.headers);
  return {
    endpoint: headerMatching(res.headers, DATA_HEADER) ?? id,
    ...(route ? { direct_endpoint: route } : {}),
    ...(fits ? { data } : {}),
    ...(saved
      ? {
          summary: `${mb(res.data.length)} reply saved to ${saved.path ?? saved.uri}; it begins: ${text.slice(0, TEXT_MAX_CHARS)}`,
          file: saved.uri,
        }
      : {}),
    ...(cost !== undefined ? { cost } : {}),
    ...(res.requestId ? { request_id: res.requestId } : {}),
  };
}

const Costed = z.looseObject({
  cost: z.number().optional(),
  summary: z.looseObject({ totalCost: z.number().optional() }).optional(),
});

/** The charge as the reply states it: the pricing extension, else `cost`, else the summary's total. */
function costOf(data: unknown): number | undefined {
  const pricing = readPricing(data);
  if (pricing?.cost !== undefined || pricing?.amount !== undefined) return pricing.cost ?? pricing.amount;
  const parsed = readReply(Costed, data);
  return parsed.success ? (parsed.data.cost ?? parsed.data.summary?.totalCost) : undefined;
}

export function dataText(result: DataOut): string {
  const head = `${result.endpoint}${result.cost !== undefined ? ` (cost ${result.cost} USD)` : ''}${result.request_id ? ` [${result.request_id}]` : ''}`;
  if (result.summary) return `${head}\n${result.summary}`;
  const body = JSON.stringify(result.data) ?? '';
  return `${head}\n${body.length > TEXT_MAX_CHARS ? `${body.slice(0, TEXT_MAX_CHARS)}… (${body.length - TEXT_MAX_CHARS} more characters in structuredContent)` : body}`;
}

export const dataContent = (result: DataOut): ExtraContent[] =>
  result.file ? [{ type: 'media', uri: result.file }] : [];

/** Progress while a long reply (a crawl) streams in: "crawler: 12 KB of 38 KB received". */
export function receiving(ctx: ToolContext, id: string): OnBytes {
  const kb = (bytes: number) => (bytes < 1_048_576 ? `${Math.ceil(bytes / 1024)} KB` : mb(bytes));
  return (received, total) =>
    ctx.progress.report(
      `${id}: ${kb(received)}${total ? ` of ${kb(total)}` : ''} received`,
      total ? received / total : undefined,
    );
}

const Metadata = z.looseObject({
  description: z.string().optional(),
  input: z
    .looseObject({
      description: z.string().nullish(),
      schema: z
        .looseObject({
          properties: z
            .record(z.string(), z.looseObject({ type: z.unknown(), description: z.string().optional() }))
            .optional(),
          required: z.array(z.string()).optional(),
        })
        .optional(),
      example: z.unknown().optional(),
    })
    .optional(),
});

/**
 * The endpoint's public metadata: a GET on a POST-only endpoint's data path returns it (spec 1
 * §4.5). A GET on an endpoint that takes GET would run it, so those are described by their entry.
 */
export async function describeEntry(ctx: ToolContext, entry: DataEntry): Promise<DataOut> {
  if (entry.methods.includes('GET')) {
    return {
      endpoint: entry.id,
      data: entry,
      summary: `${entry.id} (${entry.methods.join(', ')}): ${entry.description ?? ''} Pricing: ${entry.pricing ?? 'not stated'}. Input fields go in \`input\` (as query parameters with method GET).`,
    };
  }
  const { data, requestId } = await ctx.api.request({
    method: 'GET',
    path: dataPath(entry),
    credential: 'optional',
    schema: Metadata,
  });
  return {
    endpoint: entry.id,
    data,
    summary: usage(entry, data),
    ...(requestId ? { request_id: requestId } : {}),
  };
}

/** How to call an endpoint, in a few lines: its fields (required first) and an example input. */
function usage(entry: DataEntry, metadata: z.infer<typeof Metadata>): string {
  const schema = metadata.input?.schema;
  const required = new Set(schema?.required ?? []);
  const fields = Object.entries(schema?.properties ?? {})
    .sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)))
    .map(
      ([name, field]) =>
        `${name}${required.has(name) ? ' (required)' : ''}${typeof field.type === 'string' ? ` ${field.type}` : ''}${field.description ? `: ${field.description}` : ''}`,
    );
  const example =
    metadata.input?.example === undefined ? '' : ` Example input: ${JSON.stringify(metadata.input.example)}`;
  return `${entry.id} (${entry.methods.join(', ')}): ${metadata.input?.description ?? entry.description ?? ''} Fields: ${fields.join('; ') || 'see data'}.${example}`;
}

/** What to do about each data wrapper error of spec 1 §7.2. */
const WRAPPER_FIX: Record<string, (entry: DataEntry) => string> = {
  invalid_json: () =>
    'The data API could not read the body as JSON; pass `input` as a JSON object. If it was one, report this with the request id.',
  invalid_body: () => 'Pass `input` as a JSON object of the endpoint fields (describe: true lists them).',
  missing_endpoint: () => 'Name the endpoint in `endpoint` (data_endpoints lists the ids).',
  unknown_endpoint: () => 'Use an id from data_endpoints; the message names the closest ones.',
  method_not_allowed: (entry) =>
    `Call ${entry.id} with ${entry.methods.join(' or ')} (leave \`method\` out for POST).`,
  unsupported_data_endpoint: (entry) =>
    `The data API cannot dispatch ${entry.id} right now; try again later, or pick another endpoint from data_endpoints.`,
};

/**
 * A wrapper error gets the fix for its code; an input the endpoint rejected gets, besides the
 * platform's message, how to call the endpoint (its public metadata), so the next call can work.
 */
export async function explainFailure(ctx: ToolContext, error: unknown, entry: DataEntry): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  const wrapperFix = error.upstreamCode ? WRAPPER_FIX[error.upstreamCode] : undefined;
  if (wrapperFix) return withFix(error, wrapperFix(entry));
  if (!(error instanceof BadRequestError) || entry.methods.includes('GET')) return error;
  const described = await describeEntry(ctx, entry).catch(() => undefined);
  return described?.summary ? withFix(error, `Fix the input. ${described.summary}`) : error;
}
