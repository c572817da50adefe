import { z } from 'zod';
import { InputError, REPORT_UPSTREAM, UpstreamInvalidError } from '../../src/errors.js';
import { float32Npy } from '../../src/files/npy.js';
import { defineTool, type SavedFile, type ToolContext } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { leftOutNote } from '../../src/replies/usable-list.js';
import { readPricing } from '../../src/upstream/pricing.js';
import {
  checkInputs,
  chooseModel,
  cosine,
  MAX_INPUTS,
  maxInputsOf,
  Reply,
  vectorsOf,
  wantsBase64,
} from './shared.js';

/** Ranked documents shown in a result; a longer ranking is saved whole to a file. */
const RANKED_SHOWN = 50;
const SNIPPET = 160;

export default defineTool({
  name: 'embed',
  title: 'Embeddings',
  description:
    'Embeddings: vectors of text (.json and .npy files), or documents ranked by semantic similarity or relevance to a query: search, rank, match, cluster. Paid.',
  toolset: 'embeddings',
  long: 'progress',
  credential: 'api_key',
  input: z.object({
    input: z.unknown().optional().describe('text or list'),
    query: z.string().optional(),
    documents: z.array(z.string()).optional(),
    model: z.string().optional(),
    dimensions: z.number().int().optional(),
  }),
  // Loose: a `not_usable` note passes without being listed (tokens).
  output: z.looseObject({
    model: z.string(),
    count: z.number(),
    dimensions: z.number(),
    ranked: z.array(z.object({ index: z.number(), score: z.number(), text: z.string() })).optional(),
    files: z.array(z.string()).optional(),
    tokens: z.number().optional(),
    cost: z.number().optional(),
  }),
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    const ranking = args.query !== undefined || args.documents !== undefined;
    if (ranking === (args.input !== undefined)) {
      throw new InputError('Give either `input` (vectors) or `query` with `documents` (ranking).', {
        fix: 'Pass input alone, or query and documents together.',
        param: 'input',
      });
    }
    if (ranking && (args.query === undefined || args.documents === undefined)) {
      throw new InputError('Ranking needs both `query` and `documents`.', {
        fix: 'Pass the query text and the documents to rank.',
        param: args.query === undefined ? 'query' : 'documents',
      });
    }
    const texts = ranking ? [args.query!, ...args.documents!] : textsOf(args.input);
    const argument = ranking ? 'documents' : 'input';
    // The query takes one place of the request's inputs.
    checkInputs(ranking ? args.documents! : texts, argument, MAX_INPUTS - (ranking ? 1 : 0));
    if (ranking) checkInputs([args.query!], 'query', 1);
    const model = await chooseModel(ctx, args.model, args.dimensions);
    checkInputs(ranking ? args.documents! : texts, argument, maxInputsOf(model.info) - (ranking ? 1 : 0));
    ctx.progress.report(`embedding ${texts.length} text${texts.length > 1 ? 's' : ''} with ${model.id}`);
    const base64 = wantsBase64(model.info);
    const { data, requestId } = await ctx.api.request({
      method: 'POST',
      path: '/api/v1/embeddings',
      body: {
        model: model.id,
        input: texts,
        ...(args.dimensions !== undefined ? { dimensions: args.dimensions } : {}),
        ...(base64 ? { encoding_format: 'base64' } : {}),
      },
      schema: Reply,
    });
    const { vectors, left_out } = vectorsOf(data, texts.length, requestId);
    if (ranking && !vectors[0]) {
      throw new UpstreamInvalidError(`The query got no usable vector (${leftOutNote('vector', left_out)}).`, {
        requestId,
        fix: REPORT_UPSTREAM,
        details: { field: 'data' },
      });
    }
    const pricing = readPricing(data);
    const cost = pricing?.cost ?? pricing?.amount;
    // Inputs are counted from 0 as sent; in ranking the query is input 0 and document i is input i+1.
    const unusable = leftOutNote('vector', left_out);
    const common = {
      model: data.model ?? model.id,
      count: vectors.length,
      dimensions: vectors.find(Boolean)!.length,
      ...(data.usage?.total_tokens !== undefined || data.usage?.prompt_tokens !== undefined
        ? { tokens: data.usage.total_tokens ?? data.usage.prompt_tokens }
        : {}),
      ...(cost !== undefined ? { cost } : {}),
      ...(unusable ? { not_usable: unusable } : {}),
    };
    if (ranking) return { ...common, ...(await rank(ctx, vectors, args.documents!)) };
    return { ...common, files: await saveVectors(ctx, common.model, vectors, common.dimensions) };
  },
  cost: {
    spent: (r) => r.cost,
  },
  text: (r) => {
    const head = `${r.count} vectors of ${r.dimensions} numbers from ${r.model}${r.cost !== undefined ? `, cost ${usd(r.cost)} USD` : ''}${typeof r.not_usable === 'string' ? ` (${r.not_usable})` : ''}`;
    const files = r.files?.join(', ');
    if (r.ranked) {
      const lines = r.ranked.map((d, i) => `${i + 1}. [${d.index}] ${d.score.toFixed(4)} ${d.text}`);
      return [
        `Documents ranked by cosine similarity to the query (${head})`,
        ...lines,
        ...(files ? [`Full ranking: ${files}`] : []),
      ].join('\n');
    }
    return `${head}, saved as JSON and .npy (float32, shape ${r.count}x${r.dimensions}): ${files}. Read them as resources, or from the paths in the links.`;
  },
  content: (r) => (r.files ?? []).map((uri) => ({ type: 'media' as const, uri })),
});

/** `input` is one text or a list of texts (checked here, so the listing stays small). */
function textsOf(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.every((text) => typeof text === 'string')) return input;
  throw new InputError('`input` must be a text or a list of texts.', {
    fix: 'Pass a string, or an array of strings (at most 2,048).',
    param: 'input',
  });
}

/** Documents by cosine similarity to the query (the first vector), best first; one without a vector is not ranked. */
async function rank(ctx: ToolContext, vectors: (Float32Array | undefined)[], documents: string[]) {
  const [query, ...docs] = vectors;
  const ranked = docs
    .flatMap((vector, index) => (vector ? [{ index, vector }] : []))
    .map(({ index, vector }) => ({ index, score: Math.round(cosine(query!, vector) * 1e6) / 1e6 }))
    .sort((a, b) => b.score - a.score || a.index - b.index);
  const shown = ranked
    .slice(0, RANKED_SHOWN)
    .map((d) => ({ ...d, text: documents[d.index]!.slice(0, SNIPPET) }));
  if (ranked.length <= RANKED_SHOWN) return { ranked: shown };
  const all = ranked.map((d) => ({ ...d, text: documents[d.index] }));
  const saved = await ctx.files.save(Buffer.from(JSON.stringify({ ranked: all })), {
    mimeType: 'application/json',
  });
  return { ranked: shown, files: [fileOf(saved)] };
}

/**
 * The vectors as JSON (rows in input order) and as a float32 numpy array of shape (count,
 * dimensions); an input that got no vector is `null` in the JSON and a row of NaN in the array.
 */
async function saveVectors(
  ctx: ToolContext,
  model: string,
  vectors: (Float32Array | undefined)[],
  dimensions: number,
) {
  const json = Buffer.from(
    JSON.stringify({
      model,
      count: vectors.length,
      dimensions,
      embeddings: vectors.map((v) => (v ? Array.from(v) : null)),
    }),
  );
  const rows = vectors.map((v) => v ?? new Float32Array(dimensions).fill(Number.NaN));
  const saved = [
    await ctx.files.save(json, { mimeType: 'application/json' }),
    await ctx.files.save(float32Npy(rows, dimensions), { mimeType: 'application/x-npy' }),
  ];
  return saved.map(fileOf);
}

const fileOf = (saved: SavedFile) => saved.uri;

/** Plain decimals: embedding costs are tiny and `6.2e-7` reads badly. */
const usd = (amount: number) => amount.toFixed(10).replace(/\.?0+$/, '');
