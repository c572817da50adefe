import { z } from 'zod';
import { InputError, REPORT_UPSTREAM, UpstreamInvalidError } from '../../src/errors.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { toNumber } from '../../src/replies/number.js';
import { readReply } from '../../src/replies/read.js';
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

export const Reply = z.looseObject({
  data: z.array(
    z.looseObject({
      index: z.preprocess(toNumber, z.number().int().min(0)).optional(),
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
  model: z.string().optional(),
  usage: z
    .looseObject({ prompt_tokens: z.number().optional(), total_tokens: z.number().optional() })
    .optional(),
});

/** The vectors in input order, all of one length; a reply that breaks that is the platform's fault. */
export function vectorsOf(
  reply: z.infer<typeof Reply>,
  count: number,
  requestId: string | undefined,
): Float32Array[] {
  const bad = (field: string, what: string) =>
    new UpstreamInvalidError(`The embeddings reply is wrong at \`${field}\`: ${what}.`, {
      requestId,
      fix: REPORT_UPSTREAM,
      details: { field },
    });
  if (reply.data.length !== count) throw bad('data', `${reply.data.length} vectors for ${count} inputs`);
  const vectors: Float32Array[] = new Array(count);
  reply.data.forEach((item, position) => {
    const index = item.index ?? position;
    if (index >= count || vectors[index])
      throw bad(`data.${position}.index`, `index ${index} is out of place`);
    if (typeof item.embedding !== 'string') {
      vectors[index] = Float32Array.from(item.embedding);
      return;
    }
    const bytes = Buffer.from(item.embedding, 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0) {
      throw bad(`data.${position}.embedding`, 'base64 that is not whole float32 numbers');
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    vectors[index] = Float32Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
  });
  const size = vectors[0]?.length ?? 0;
  const uneven = vectors.findIndex((vector) => vector.length !== size || size === 0);
  if (uneven >= 0) throw bad(`data.${uneven}.embedding`, `length ${vectors[uneven]?.length}, not ${size}`);
  return vectors;
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
