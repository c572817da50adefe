import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { LIMITS, readMediaInput } from '../../src/files/input.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { imagePrice } from './image-price.js';
import { checkParameters, ImagesOut, imageModel, imagesText, postImages, saveImages } from './images.js';
import { filesContent } from './shared.js';

/** Older fields the image API refuses next to `input_references` (spec 2 §4.4a). */
const LEGACY = ['imageDataUrl', 'imageDataUrls', 'image_url', 'images'];

export default defineTool({
  name: 'image_generate',
  title: 'Generate images',
  description:
    'Create an image from a prompt: draw, design or paint a picture, photo, logo, icon, illustration, poster, art; optional references. Saves files. Existing image: image_edit.',
  toolset: 'media',
  long: 'progress',
  view: 'gallery',
  credential: 'api_key',
  input: z.looseObject({
    model: z.string().describe('models_list kind=image'),
    prompt: z.string(),
    n: z.number().int().min(1).optional(),
    resolution: z.string().optional(),
    aspect_ratio: z.string().optional(),
    quality: z.string().optional(),
    output_format: z.string().optional(),
    seed: z.number().int().optional(),
    input_references: z.array(z.string()).optional().describe('URLs, data URLs or paths'),
  }),
  output: ImagesOut,
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    const legacy = LEGACY.filter((name) => name in args);
    if (legacy.length > 0) {
      throw new InputError(
        `${legacy.join(', ')} ${legacy.length > 1 ? 'are' : 'is'} a legacy field the image API refuses here.`,
        {
          param: legacy[0],
          fix: 'Put every reference image in input_references (URLs, data URLs or local paths).',
        },
      );
    }
    const { model: id, prompt, input_references: refs, ...rest } = args;
    const known = new Set(['n', 'resolution', 'aspect_ratio', 'quality', 'output_format', 'seed']);
    const unknown = Object.keys(rest).filter((key) => !known.has(key));
    if (unknown.length > 0)
      throw new InputError(`Unknown argument ${unknown.join(', ')}.`, { fix: 'See the tool input schema.' });
    const params = {
      n: args.n,
      resolution: args.resolution,
      aspect_ratio: args.aspect_ratio,
      quality: args.quality,
      output_format: args.output_format,
      seed: args.seed,
    };
    const model = await imageModel(ctx, id);
    checkParameters(model, { ...params, ...(refs?.length ? { input_references: refs } : {}) });
    const references: string[] = [];
    for (const [i, ref] of (refs ?? []).entries()) {
      const input = await readMediaInput(ref, ctx.files, {
        maxBytes: LIMITS.imageReference,
        purpose: 'an image reference',
        argument: `input_references[${i}]`,
      });
      references.push(input.kind === 'url' ? input.url : input.dataUrl);
    }
    ctx.progress.report(`generating ${args.n ?? 1} image${(args.n ?? 1) > 1 ? 's' : ''} with ${id}`);
    const { data, requestId } = await postImages(ctx, {
      model: id,
      prompt,
      ...params,
      ...(references.length ? { input_references: references } : {}),
    });
    const saved = await saveImages(ctx, data, requestId);
    const notes = [model.unread, saved.not_usable].filter(Boolean).join('; ');
    return {
      ...saved,
      ...(notes ? { not_usable: notes } : {}),
      ...(data.cost !== undefined ? { cost: data.cost } : {}),
      request_id: requestId,
    };
  },
  cost: {
    // The catalog's price per image at the requested resolution.
    price: (args, ctx) => imagePrice(ctx, args),
    spent: (r) => r.cost,
  },
  text: imagesText,
  content: (r) => filesContent(r.images),
});
