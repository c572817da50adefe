import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool, LONG_RESULT_CHARS } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { callAccountless, goesAccountless } from '../../src/payments/accountless.js';
import { PaymentRequest, paymentText } from '../../src/payments/challenge.js';
import type { QueryValue } from '../../src/upstream/outgoing.js';
import {
  DataOut,
  dataContent,
  dataText,
  describeEntry,
  explainFailure,
  receiving,
  renderDataReply,
} from './reply.js';
import { dataCatalog, dataPath, findEntry, unknownEndpoint } from './shared.js';

export default defineTool({
  name: 'data_call',
  title: 'Data API call',
  description:
    'Fetch data: scrape a web page, places and reviews on a map, social profiles, posts, followers, contact details, find or verify an email address or pattern, company info. Ids: data_endpoints. Paid; else x402 quote.',
  toolset: 'data',
  long: 'progress',
  resultChars: LONG_RESULT_CHARS,
  view: 'payment',
  credential: 'optional',
  input: z.object({
    endpoint: z.string(),
    input: z.unknown().optional().describe('object of its fields'),
    describe: z.boolean().optional(),
    method: z.enum(['GET', 'POST']).optional(),
    payment: z.enum(['x402']).optional(),
  }),
  output: DataOut,
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    const { data: entries } = await dataCatalog(ctx);
    const entry = findEntry(entries, args.endpoint);
    if (!entry) throw unknownEndpoint(entries, args.endpoint);
    if (args.describe) return describeEntry(ctx, entry);
    const input = objectInput(args.input, entry.id);
    const method = args.method ?? (entry.methods.includes('POST') ? 'POST' : 'GET');
    if (!entry.methods.includes(method)) {
      throw new InputError(`${entry.id} accepts ${entry.methods.join(' and ')} only, not ${method}.`, {
        fix: `Call it with method ${entry.methods[0]}${entry.methods[0] === 'POST' ? ' (or leave method out)' : ''}; nothing was sent.`,
        param: 'method',
      });
    }
    const onBytes = receiving(ctx, entry.id);
    ctx.progress.report(`calling ${entry.id}`);
    try {
      if (args.payment && method !== 'POST') {
        throw new InputError('Pay-per-call (x402) requests are POSTs.', {
          fix: 'Leave method out.',
          param: 'method',
        });
      }
      if (method === 'POST' && goesAccountless(ctx, args.payment)) {
        const path = dataPath(entry);
        const asked = await callAccountless(ctx, {
          tool: 'data_call',
          render: { id: entry.id },
          path,
          body: args.input,
          onBytes,
        });
        return asked.kind === 'quote'
          ? { endpoint: entry.id, payment: asked.payment }
          : await renderDataReply(ctx, entry.id, asked.reply);
      }
      const res = await ctx.api.bytes({
        method,
        path: dataPath(entry),
        ...(method === 'GET' ? { query: queryOf(input) } : { body: input }),
        onBytes,
        jsonProgress: true,
      });
      return await renderDataReply(ctx, entry.id, res);
    } catch (error) {
      throw await explainFailure(ctx, error, entry);
    }
  },
  cost: {
    // A quote costs nothing (x402_complete counts what is paid); otherwise the tool's ceiling holds.
    price: (args, ctx) =>
      (args.method ?? 'POST') === 'POST' && goesAccountless(ctx, args.payment)
        ? { usd: 0, basis: 'a payment quote costs nothing' }
        : undefined,
    spent: (r) => (r.payment ? 0 : r.cost),
  },
  untrusted: ['data', 'summary'],
  text: (r) => {
    const payment = PaymentRequest.safeParse(r.payment);
    return payment.success ? paymentText(payment.data) : dataText(r);
  },
  content: dataContent,
});

/** The endpoint's fields as a JSON object; anything else is refused before sending. */
function objectInput(input: unknown, id: string): Record<string, unknown> {
  if (input === undefined) return {};
  const parsed = z.record(z.string(), z.unknown()).safeParse(input);
  if (parsed.success) return parsed.data;
  throw new InputError(
    `\`input\` must be a JSON object of ${id}'s fields, not ${Array.isArray(input) ? 'an array' : typeof input}.`,
    {
      fix: `Pass input as an object such as {"field": "value"}; call data_call with endpoint "${id}" and describe: true to see the fields. Nothing was sent.`,
      param: 'input',
    },
  );
}

/** A GET carries the input as query parameters: scalars, or lists of scalars repeated. */
function queryOf(input: Record<string, unknown>): Record<string, QueryValue> {
  const scalar = (value: unknown): value is string | number | boolean | null | undefined =>
    value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);
  return Object.fromEntries(
    Object.entries(input).map(([name, value]): [string, QueryValue] => {
      if (scalar(value)) return [name, value];
      if (Array.isArray(value) && value.every(scalar)) return [name, value.map(String)];
      throw new InputError(`input.${name} cannot travel in a GET query (it is a nested object).`, {
        fix: 'Use method POST (or leave method out) for nested input; nothing was sent.',
        param: `input.${name}`,
      });
    }),
  );
}
