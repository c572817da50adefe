import { z } from 'zod';
import { LIMITS, type MediaInput, readMediaInput } from '../../src/files/input.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { ImageReply, ImagesOut, imagesText, saveImages } from './images.js';
import { filesContent } from './shared.js';

export default defineTool({
  name: 'image_edit',
  title: 'Edit images',
  description:
    'Edit an existing image or photo by prompt: remove or replace background or object, change, retouch, combine pictures; optional mask. New images: image_generate.',
  toolset: 'media',
  long: 'progress',
  view: 'gallery',
  credential: 'api_key',
  input: z.object({
    prompt: z.string(),
    images: z.array(z.string()).min(1).describe('paths, URLs or data URLs ≤4 MB'),
    mask: z.string().optional(),
    model: z.string().optional(),
    size: z.string().optional(),
    n: z.number().int().optional(),
  }),
  output: ImagesOut,
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    const read = (ref: string, argument: string) =>
      readMediaInput(ref, ctx.files, { maxBytes: LIMITS.imageEdit, purpose: 'an image edit', argument });
    const images: MediaInput[] = [];
    for (const [i, ref] of args.images.entries()) images.push(await read(ref, `images[${i}]`));
    const mask = args.mask ? await read(args.mask, 'mask') : undefined;
    const local = [...images, ...(mask ? [mask] : [])].some(
      (input) => input.kind === 'bytes' && input.source === 'file',
    );
    const anyUrl = [...images, ...(mask ? [mask] : [])].some((input) => input.kind === 'url');
    ctx.progress.report(`editing ${images.length} image${images.length > 1 ? 's' : ''}`);
    let reply: Awaited<ReturnType<typeof send>>;
    // Local files travel as multipart; data URLs alone as JSON (spec 2 §4.5).
    if (local || anyUrl) {
      const form = new FormData();
      form.set('prompt', args.prompt);
      const field = images.length > 1 ? 'image[]' : 'image';
      for (const input of images) appendImage(form, field, input);
      if (mask) appendImage(form, 'mask', mask);
      if (args.model) form.set('model', args.model);
      if (args.size) form.set('size', args.size);
      if (args.n) form.set('n', String(args.n));
      reply = await send({ form });
    } else {
      const urls = images.map((input) => (input.kind === 'bytes' ? input.dataUrl : input.url));
      reply = await send({
        body: {
          model: args.model,
          prompt: args.prompt,
          ...(urls.length === 1 ? { imageDataUrl: urls[0] } : { imageDataUrls: urls }),
          ...(mask?.kind === 'bytes' ? { maskDataUrl: mask.dataUrl } : {}),
          size: args.size,
          n: args.n,
        },
      });
    }
    return {
      ...(await saveImages(ctx, reply.data, reply.requestId)),
      ...(reply.data.cost !== undefined ? { cost: reply.data.cost } : {}),
      request_id: reply.requestId,
    };

    function send(payload: { form?: FormData; body?: unknown }) {
      return ctx.api.request({
        method: 'POST',
        path: '/api/v1/images/edits',
        ...payload,
        schema: ImageReply,
      });
    }
  },
  cost: {
    spent: (r) => r.cost,
  },
  text: imagesText,
  content: (r) => filesContent(r.images),
});

function appendImage(form: FormData, field: string, input: MediaInput): void {
  if (input.kind === 'url') form.append(field, input.url);
  else form.append(field, new Blob([new Uint8Array(input.data)], { type: input.mimeType }), input.name);
}
