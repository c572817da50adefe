import { z } from 'zod';
import { InputError, REPORT_UPSTREAM, routeMissing, UpstreamInvalidError } from '../../src/errors.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { NumberLike } from '../../src/replies/number.js';
import { readReply } from '../../src/replies/read.js';
import { type LeftOut, leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { download, FileOut, saveBytes, whereSaved } from './shared.js';

/** Image model records (spec 2 §2.3): each parameter's rule, checked before anything is sent. */
const Rule = z.union([
  z.looseObject({
    type: z.literal('enum'),
    values: z.array(z.union([z.string(), z.number()])),
    default: z.unknown().optional(),
  }),
  z.looseObject({
    type: z.literal('range'),
    min: z.number(),
    max: z.number(),
    default: z.unknown().optional(),
  }),
]);
const ImageModel = z.looseObject({
  id: z.string(),
  supported_parameters: z.record(z.string(), Rule.or(z.unknown())).optional(),
  capabilities: z.looseObject({ image_to_image: z.boolean().optional() }).optional(),
});
type ImageModel = z.infer<typeof ImageModel> & {
  /** The catalog listed the model but its record could not be read: its parameters go unchecked. */
  unread?: string;
};
type Catalog = { models: ImageModel[]; left_out: LeftOut[] };

const CACHE_MS = 5 * 60_000;
const cache = new Map<string, { at: number; catalog: Catalog }>();

export async function imageModel(ctx: ToolContext, id: string): Promise<ImageModel> {
  const hit = cache.get(ctx.api.baseUrl);
  let catalog = hit && Date.now() - hit.at < CACHE_MS ? hit.catalog : undefined;
  if (!catalog) {
    catalog = await listImageModels(ctx);
    cache.set(ctx.api.baseUrl, { at: Date.now(), catalog });
  }
  const model = catalog.models.find((m) => m.id === id);
  // Its record is the one left out: the platform checks the parameters, and the answer says why.
  const unread = catalog.left_out.find((m) => m.name === id);
  if (!model && unread)
    return {
      id,
      unread: `the catalog's record of ${id} ${unread.reason}: its parameters were not checked here`,
    };
  if (!model) {
    throw new InputError(`No image model "${id}".`, {
      param: 'model',
      fix: 'Call models_list with kind "image" for valid ids.',
    });
  }
  return model;
}

/**
 * The image API's catalog, or where it is absent (404) the older catalog `/api/v1/image-models`
 * (spec 2 §4.4), whose records carry no `supported_parameters`: then the platform checks them.
 */
async function listImageModels(ctx: ToolContext): Promise<Catalog> {
  const list = async (path: string): Promise<Catalog> => {
    const { data } = await ctx.api.request({
      method: 'GET',
      path,
      credential: 'none',
      // Read model by model (the list rule): one odd record never hides the others.
      schema: z.looseObject({ data: z.array(z.unknown()) }),
    });
    const { items, left_out } = usableList(ImageModel, data.data);
    return { models: items, left_out };
  };
  try {
    return await list('/api/v1/images/models');
  } catch (error) {
    if (!routeMissing(error)) throw error;
    ctx.progress.report('the image API catalog answered 404; using /api/v1/image-models');
    return await list('/api/v1/image-models');
  }
}

/**
 * Generation on the image API (`POST /api/v1/images`), or where it answers 404 on the compatible
 * routes in turn (spec 2 §4.4a), which take the older field for reference images (§9).
 */
export async function postImages(ctx: ToolContext, body: Record<string, unknown>) {
  const { input_references: refs, ...rest } = body;
  const legacyBody = Array.isArray(refs) && refs.length > 0 ? { ...rest, imageDataUrls: refs } : rest;
  const routes = [
    ['/api/v1/images', body],
    ['/api/v1/images/generations', legacyBody],
    ['/v1/images/generations', legacyBody],
  ] as const;
  let missing: unknown;
  for (const [path, sent] of routes) {
    if (missing) ctx.progress.report(`the image route answered 404; trying ${path}`);
    try {
      return await ctx.api.request({ method: 'POST', path, body: sent, schema: ImageReply });
    } catch (error) {
      if (!routeMissing(error)) throw error;
      missing = error;
    }
  }
  throw missing;
}

/** Refuses a value the model's record does not allow, naming what it does allow. */
export function checkParameters(model: ImageModel, given: Record<string, unknown>): void {
  // A record without rules (the older catalog) leaves the checking to the platform.
  if (!model.supported_parameters) return;
  const rules = model.supported_parameters;
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const parsed = readReply(Rule, rules[name]);
    if (!(name in rules)) {
      const allowed = Object.keys(rules).join(', ') || 'none';
      throw new InputError(`${model.id} does not take \`${name}\` (it takes: ${allowed}).`, {
        param: name,
        fix: `Drop ${name}, or pick another model.`,
      });
    }
    if (!parsed.success) continue;
    const rule = parsed.data;
    if (name === 'input_references') {
      const count = Array.isArray(value) ? value.length : 0;
      if (rule.type === 'range' && count > rule.max) {
        throw new InputError(`${model.id} takes at most ${rule.max} input references.`, {
          param: name,
          fix: 'Send fewer references.',
        });
      }
      continue;
    }
    if (rule.type === 'enum' && !rule.values.map(String).includes(String(value))) {
      throw new InputError(`\`${name}\` must be one of ${rule.values.join(', ')} for ${model.id}.`, {
        param: name,
        fix: `Use one of ${rule.values.join(', ')}.`,
      });
    }
    if (rule.type === 'range' && (typeof value !== 'number' || value < rule.min || value > rule.max)) {
      throw new InputError(`\`${name}\` must be from ${rule.min} to ${rule.max} for ${model.id}.`, {
        param: name,
        fix: `Use a value from ${rule.min} to ${rule.max}.`,
      });
    }
  }
}

/** One generated image: its bytes inline or a temporary URL. */
const ImageItem = z.looseObject({
  b64_json: z.string().optional(),
  url: z.string().optional(),
  revised_prompt: z.string().optional(),
});

/**
 * The image reply (GAPS.md): `{created, data:[{b64_json}|{url}], cost, paymentSource, remainingBalance}`.
 * Each image is read on its own (one that cannot be used is left out and named); numbers may be strings.
 */
export const ImageReply = z.looseObject({
  data: z.array(z.unknown()),
  cost: NumberLike.optional(),
  remainingBalance: NumberLike.optional(),
});

// Loose: a `not_usable` note passes without being listed (tokens).
export const ImagesOut = z.looseObject({
  images: z.array(FileOut),
  cost: z.number().optional(),
  request_id: z.string().optional(),
});
export type ImagesOut = z.infer<typeof ImagesOut>;

/**
 * Saves every usable image of a reply (base64 or temporary URL) under the output directory; the
 * others are named in `not_usable`. A reply with images but none usable is `upstream_invalid`.
 */
export async function saveImages(
  ctx: ToolContext,
  reply: z.infer<typeof ImageReply>,
  requestId?: string,
): Promise<{ images: ImagesOut['images']; not_usable?: string }> {
  const usable = usableList(ImageItem, reply.data, {
    nameKeys: [],
    usable: (item) => (item.b64_json || item.url ? undefined : 'has no b64_json or url'),
  });
  const notUsable = leftOutNote('image', usable.left_out);
  if (usable.items.length === 0 && notUsable)
    throw new UpstreamInvalidError(`The platform sent no usable image (${notUsable}).`, {
      requestId,
      fix: REPORT_UPSTREAM,
    });
  const images: ImagesOut['images'] = [];
  for (const [i, item] of usable.items.entries()) {
    ctx.progress.report(`saving image ${i + 1} of ${usable.items.length}`);
    if (item.b64_json) {
      const bytes = Buffer.from(item.b64_json, 'base64');
      // The base64 text (a third larger than the image) goes before the next image is decoded.
      item.b64_json = undefined;
      images.push(await saveBytes(ctx, bytes));
    } else if (item.url) {
      const { data, contentType } = await download(ctx, item.url, 'the image');
      images.push(await saveBytes(ctx, data, contentType));
    }
  }
  return { images, ...(notUsable ? { not_usable: notUsable } : {}) };
}

export function imagesText(r: ImagesOut): string {
  const lines = r.images.map((img, i) => `Image ${i + 1}: ${whereSaved(img)}`);
  if (r.cost !== undefined) lines.push(`Cost: ${r.cost} USD`);
  if (typeof r.not_usable === 'string') lines.push(`(${r.not_usable}.)`);
  return lines.join('\n') || 'No images came back.';
}
