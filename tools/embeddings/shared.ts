import { z } from 'zod';
import { InputError, REPORT_UPSTREAM, UpstreamInvalidError } from '../../src/errors.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { toNumber } from '../../src/replies/number.js';
import { readReply } from '../../src/replies/read.js';
import { type LeftOut, leftOutNote, reasonOf } from '../../src/replies/usable-list.js';
import { fetchCatalog } from '../models/shared.js';

/**
 * Embeddings (spec 2 §4.10, §8): the model catalog's limits (read leniently: its shape is not
 * specified), the checks made before sending, and the reply's vectors decoded from float lists or
 * base64 little-endian float32.
 */
export const MAX_INPUTS = 2048;
/** Spec 2 names it among the models with reduction; used when listed and no model is given. */
const PREFERRED = 'text-embedding-3-small';

const ModelInfo = z.looseObject({
  id: z.string(),
  dimensions: z.number().int().positive().optional(),
  supports_dimensions: z.boolean().optional(),
  min_dimensions: z.number().int().positive().optional(),
  max_inputs: z.number().int().positive().optional(),
  encoding_formats: z.array(z.string()).optional(),
});
type ModelInfo = z.infer<typeof ModelInfo>;

const reduces = (model: ModelInfo): boolean | undefined =>
  model.supports_dimensions ?? (model.min_dimensions !== undefined ? true : undefined);

/** The model to use (the one asked for, else a sensible default) with what the catalog says of it. */
export async function chooseModel(
  ctx: ToolContext,
  wanted: string | undefined,
  dimensions: number | undefined,
): Promise<{ id: string; info?: ModelInfo }> {
  const listed = (await fetchCatalog(ctx.api, 'embedding')).flatMap((record) => {
    const parsed = readReply(ModelInfo, record);
    return parsed.success ? [parsed.data] : [];
  });
  const ids = listed.map((m) => m.id);
  if (wanted !== undefined && listed.length > 0 && !ids.includes(wanted)) {
    throw new InputError(`Unknown embedding model "${wanted}". Listed: ${ids.join(', ')}.`, {
      fix: 'Use one of those ids, or leave model out for the default; nothing was sent.',
      param: 'model',
    });
  }
  const info = wanted
    ? listed.find((m) => m.id === wanted)
    : (listed.find((m) => m.id === PREFERRED) ??
      (dimensions !== undefined ? listed.find((m) => reduces(m) === true) : undefined) ??
      listed[0]);
  const id = wanted ?? info?.id ?? PREFERRED;
  if (dimensions !== undefined && info) checkDimensions(info, dimensions, listed);
  return { id, ...(info ? { info } : {}) };
}

function checkDimensions(model: ModelInfo, dimensions: number, listed: ModelInfo[]): void {
  if (reduces(model) === false) {
    const able = listed.filter((m) => reduces(m) === true).map((m) => m.id);
    throw new InputError(`${model.id} does not support \`dimensions\` (it has no reduction).`, {
      fix: `Leave dimensions out, or use a model that supports it${able.length ? `: ${able.join(', ')}` : ''}. Nothing was sent.`,
      param: 'dimensions',
    });
  }
  const min = model.min_dimensions ?? 1;
  if (dimensions < min || (model.dimensions !== undefined && dimensions > model.dimensions)) {
    throw new InputError(`\`dimensions\` must be ${min}..${model.dimensions ?? '∞'} for ${model.id}.`, {
      fix: 'Pick a size in that range, or leave dimensions out for the full size. Nothing was sent.',
      param: 'dimensions',
    });
  }
}

/** 1..max inputs, none empty: checked before anything is sent or charged. */
export function checkInputs(texts: readonly string[], argument: string, max: number): void {
  if (texts.length === 0) {
    throw new InputError(`\`${argument}\` is empty.`, { fix: 'Give at least one text.', param: argument });
  }
  if (texts.length > max) {
    throw new InputError(`\`${argument}\` has ${texts.length} texts; one call embeds at most ${max}.`, {
      fix: `Split them into batches of ${max} or fewer and call once per batch. Nothing was sent.`,
      param: argument,
    });
  }
  const empty = texts.findIndex((text) => !text.trim());
  if (empty >= 0) {
    throw new InputError(`\`${argument}[${empty}]\` is empty; empty texts cannot be embedded.`, {
      fix: 'Remove empty texts. Nothing was sent.',
      param: argument,
    });
  }
}

const Vector = z.looseObject({
  index: z.preprocess(toNumber, z.number().int().min(0)).optional(),
  embedding: z.union([z.array(z.number()), z.string()]),
});

export const Reply = z.looseObject({
  // Read vector by vector (the list rule): one odd element costs its input's vector, not the call.
  data: z.array(z.unknown()),
  model: z.string().optional(),
  usage: z
    .looseObject({ prompt_tokens: z.number().optional(), total_tokens: z.number().optional() })
    .optional(),
});

/** The vectors by input index (a hole where an input got none), and the elements left out, named. */
export interface Vectors {
  vectors: (Float32Array | undefined)[];
  left_out: LeftOut[];
}

/**
 * The vectors in input order, all of one length. An element that cannot be read, is out of place
 * or of another length is left out and named, and its input has no vector; a reply with no usable
 * vector at all is the platform's fault.
 */
export function vectorsOf(
  reply: z.infer<typeof Reply>,
  count: number,
  requestId: string | undefined,
): Vectors {
  const vectors: (Float32Array | undefined)[] = new Array(count).fill(undefined);
  const left_out: LeftOut[] = [];
  reply.data.forEach((raw, position) => {
    const reason = place(raw, position, count, vectors);
    if (reason) left_out.push({ name: `#${position + 1}`, reason });
  });
  // The length most vectors have is the model's; another length is an odd one.
  const size = commonLength(vectors);
  vectors.forEach((vector, index) => {
    if (!vector || vector.length === size) return;
    vectors[index] = undefined;
    left_out.push({ name: `input ${index}`, reason: `vector of length ${vector.length}, not ${size}` });
  });
  vectors.forEach((vector, index) => {
    if (!vector && !left_out.some((l) => l.name === `input ${index}`))
      left_out.push({ name: `input ${index}`, reason: 'got no vector' });
  });
  if (!vectors.some(Boolean)) {
    throw new UpstreamInvalidError(
      `The embeddings reply has no usable vector (${leftOutNote('element', left_out) ?? 'none sent'}).`,
      { requestId, fix: REPORT_UPSTREAM, details: { field: 'data' } },
    );
  }
  return { vectors, left_out };
}

/** Puts one element's vector at its index; a reason when it cannot. */
function place(
  raw: unknown,
  position: number,
  count: number,
  vectors: (Float32Array | undefined)[],
): string | undefined {
  const parsed = readReply(Vector, raw);
  if (!parsed.success) return reasonOf(parsed.error);
  const index = parsed.data.index ?? position;
  if (index >= count || vectors[index]) return `index ${index} is out of place`;
  const vector = decoded(parsed.data.embedding);
  if (!vector) return 'embedding is empty, or base64 that is not whole float32 numbers';
  vectors[index] = vector;
  return undefined;
}

function decoded(embedding: number[] | string): Float32Array | undefined {
  if (typeof embedding !== 'string') return embedding.length ? Float32Array.from(embedding) : undefined;
  const bytes = Buffer.from(embedding, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return Float32Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

function commonLength(vectors: readonly (Float32Array | undefined)[]): number {
  const counts = new Map<number, number>();
  for (const vector of vectors) if (vector) counts.set(vector.length, (counts.get(vector.length) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export const wantsBase64 = (info: ModelInfo | undefined): boolean =>
  info?.encoding_formats === undefined || info.encoding_formats.includes('base64');

export const maxInputsOf = (info: ModelInfo | undefined): number =>
  Math.min(MAX_INPUTS, info?.max_inputs ?? MAX_INPUTS);
