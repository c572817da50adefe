import type { Context, Hono } from 'hono';
import { charge, requireKey } from '../billing.js';
import { findImageModel, type ImageModel, type SupportedParameter } from '../catalog/image-models.js';
import { badRequest, SandboxError } from '../errors.js';
import { putMedia } from '../media/files.js';
import { imageSize, makePng } from '../media/png.js';
import { policyError, violatesPolicy } from '../media/policy.js';
import type { KeyRecord } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord, roundUsd, stableHash } from '../util.js';

const LEGACY_ALIASES = ['imageDataUrl', 'imageDataUrls', 'image_url', 'images'] as const;
const EDIT_MODEL = 'sandbox/image-edit';
/** Image edits call their upload limit "strict"; the sandbox uses 4 MB per image. */
const EDIT_MAX_BYTES = 4 * 1_048_576;
/** This model answers with temporary URLs; the others with base64 (GAPS.md: both happen). */
const URL_MODEL = 'pixel-lite';

/** Image generation and edits (spec 2 §4.4a, §4.5; GAPS.md image replies). */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  for (const path of ['/api/v1/images', '/api/v1/images/generations', '/v1/images/generations']) {
    app.post(path, (c) => generate(c, ctx));
  }
  for (const path of ['/api/v1/images/edits', '/api/v1/images/edit']) {
    app.post(path, async (c) => edit(c, ctx));
  }
}

function generate(c: Context<SandboxEnv>, ctx: SandboxContext): Response {
  const type = c.req.header('content-type') ?? '';
  if (!type.includes('application/json')) {
    throw new SandboxError(400, 'The image API takes JSON only (Content-Type: application/json).', {
      code: 'invalid_content_type',
    });
  }
  const key = requireKey(c, ctx);
  const body = c.get('bodyJson');
  if (!isRecord(body)) throw badRequest('The request body must be a JSON object.', 'invalid_json');
  if (typeof body.model !== 'string' || !body.model)
    throw badRequest('`model` is required.', 'missing_model', 'model');
  if (body.stream === true)
    throw badRequest('Streaming is not supported for images.', 'unsupported_stream', 'stream');
  if (isRecord(body.provider) && Object.keys(body.provider).length > 0) {
    throw badRequest(
      'Provider options are not supported on the image API.',
      'unsupported_provider_options',
      'provider',
    );
  }
  const model = findImageModel(body.model);
  if (!model)
    throw new SandboxError(404, `Image model "${body.model}" not found; see /api/v1/images/models.`, {
      code: 'model_not_found',
      param: 'model',
    });
  const references = readReferences(body, c.req.path !== '/api/v1/images');
  if (typeof body.prompt !== 'string' || !body.prompt.trim()) {
    throw badRequest('`prompt` is required.', 'missing_required_parameter', 'prompt');
  }
  if (references.length > 0 && !model.maxReferences) {
    throw badRequest(
      `${model.id} takes no input references.`,
      'invalid_input_references',
      'input_references',
    );
  }
  if (model.maxReferences && references.length > model.maxReferences) {
    throw badRequest(
      `${model.id} takes at most ${model.maxReferences} input references.`,
      'invalid_input_references',
      'input_references',
    );
  }
  const n = Number(body.nImages ?? body.n ?? 1);
  const params: Record<string, unknown> = { ...body, n };
  for (const [name, rule] of Object.entries(model.supported_parameters)) {
    if (name === 'input_references') continue;
    checkParameter(name, rule, params[name]);
  }
  for (const name of ['resolution', 'aspect_ratio', 'quality', 'output_format', 'seed']) {
    if (body[name] !== undefined && !model.supported_parameters[name]) {
      throw badRequest(`${model.id} does not support \`${name}\`.`, 'invalid_parameter_value', name);
    }
  }
  if (violatesPolicy(body.prompt)) throw policyError('prompt', false);
  return reply(
    c,
    ctx,
    key,
    model,
    body.prompt,
    n,
    stringOr(body.resolution, model),
    stringOr(body.aspect_ratio, undefined),
    model.id === URL_MODEL,
  );
}

function stringOr(value: unknown, model: ImageModel | undefined): string | undefined {
  if (typeof value === 'string') return value;
  const rule = model?.supported_parameters.resolution;
  return rule?.type === 'enum' ? String(rule.default) : undefined;
}

/** `input_references`; the older routes also take their own fields (spec 2 §9: `imageDataUrl(s)`). */
function readReferences(body: Record<string, unknown>, older: boolean): string[] {
  const given = body.input_references;
  const aliases = LEGACY_ALIASES.filter((name) => body[name] !== undefined);
  if (given !== undefined && aliases.length > 0) {
    throw badRequest(
      `\`input_references\` cannot be combined with the legacy fields ${aliases.join(', ')}.`,
      'conflicting_image_inputs',
      'input_references',
    );
  }
  const own = [body.imageDataUrl, ...(Array.isArray(body.imageDataUrls) ? body.imageDataUrls : [])].filter(
    (v) => v !== undefined,
  );
  const refs = given ?? (older && own.length > 0 ? own : undefined);
  if (refs === undefined) return [];
  if (!Array.isArray(refs))
    throw badRequest('`input_references` must be an array.', 'invalid_input_references', 'input_references');
  return refs.map((ref, i) => {
    const url =
      typeof ref === 'string'
        ? ref
        : isRecord(ref) && ref.type === 'image_url' && isRecord(ref.image_url)
          ? ref.image_url.url
          : undefined;
    if (
      typeof url !== 'string' ||
      !(/^https?:\/\//.test(url) || /^data:image\/(png|jpeg|webp);base64,/.test(url))
    ) {
      throw badRequest(
        `input_references[${i}] must be an image URL, a png/jpeg/webp data URL, or {type:"image_url", image_url:{url}}.`,
        'invalid_input_references',
        'input_references',
      );
    }
    return url;
  });
}

function checkParameter(name: string, rule: SupportedParameter, value: unknown): void {
  if (value === undefined) return;
  if (rule.type === 'enum' && !rule.values.includes(value as string | number)) {
    throw badRequest(
      `\`${name}\` must be one of ${rule.values.join(', ')}.`,
      'invalid_parameter_value',
      name,
    );
  }
  if (rule.type === 'range' && (typeof value !== 'number' || value < rule.min || value > rule.max)) {
    throw badRequest(
      `\`${name}\` must be a number from ${rule.min} to ${rule.max}.`,
      'invalid_parameter_value',
      name,
    );
  }
}

function reply(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  key: KeyRecord,
  model: ImageModel,
  prompt: string,
  n: number,
  resolution: string | undefined,
  aspectRatio: string | undefined,
  asUrl: boolean,
): Response {
  const price = model.prices[resolution ?? ''] ?? Object.values(model.prices)[0] ?? 0.01;
  const cost = roundUsd(price * n);
  charge(ctx, key, cost);
  const [width, height] = imageSize(resolution, aspectRatio);
  const data = Array.from({ length: n }, (_, i) => {
    const png = makePng(width, height, stableHash(`${model.id}:${prompt}:${i}`));
    return asUrl ? { url: putMedia(c, ctx, png, 'image/png') } : { b64_json: png.toString('base64') };
  });
  return c.json({
    created: Math.floor(ctx.now() / 1000),
    data,
    cost,
    paymentSource: 'USD',
    remainingBalance: roundUsd(key.account.balanceNanos / 1e9),
  });
}

async function edit(c: Context<SandboxEnv>, ctx: SandboxContext): Promise<Response> {
  const key = requireKey(c, ctx);
  const type = c.req.header('content-type') ?? '';
  let prompt: unknown;
  let modelId: unknown;
  let n = 1;
  let size: string | undefined;
  const images: Buffer[] = [];
  if (type.startsWith('multipart/form-data')) {
    const form = await c.req.formData().catch(() => {
      throw badRequest('The multipart body could not be read.', 'invalid_multipart_body');
    });
    prompt = form.get('prompt');
    modelId = form.get('model') ?? undefined;
    n = Number(form.get('n') ?? 1);
    size = (form.get('size') as string | null) ?? undefined;
    for (const entry of [...form.getAll('image'), ...form.getAll('image[]')]) {
      images.push(typeof entry === 'string' ? fromString(entry) : Buffer.from(await entry.arrayBuffer()));
    }
  } else if (type.includes('application/json')) {
    const body = c.get('bodyJson');
    if (!isRecord(body)) throw badRequest('The request body must be a JSON object.', 'invalid_json');
    prompt = body.prompt;
    modelId = body.model;
    n = Number(body.n ?? 1);
    const urls = [body.imageDataUrl, ...(Array.isArray(body.imageDataUrls) ? body.imageDataUrls : [])].filter(
      (v): v is string => typeof v === 'string',
    );
    for (const url of urls) images.push(fromString(url));
  } else {
    throw badRequest('Send multipart/form-data or JSON.', 'invalid_multipart_body');
  }
  if (typeof prompt !== 'string' || !prompt.trim())
    throw badRequest('`prompt` is required.', 'missing_required_parameter', 'prompt');
  if (images.length === 0)
    throw badRequest('Give `image` (or `image[]`), or `imageDataUrl`.', 'missing_image_input', 'image');
  for (const image of images) {
    if (image.length > EDIT_MAX_BYTES) {
      throw new SandboxError(413, 'An input image is larger than 4 MB; pass a URL instead.', {
        code: 'image_input_too_large',
        param: 'image',
      });
    }
  }
  const model = findImageModel(typeof modelId === 'string' && modelId ? modelId : EDIT_MODEL);
  if (!model?.capabilities.image_to_image) {
    throw badRequest(
      `${String(modelId)} cannot edit images; use ${EDIT_MODEL}.`,
      'invalid_parameter_value',
      'model',
    );
  }
  if (violatesPolicy(prompt)) throw policyError('prompt', false);
  return reply(
    c,
    ctx,
    key,
    model,
    `${prompt}:${images.length}`,
    Math.max(1, Math.min(n, 4)),
    size,
    undefined,
    false,
  );
}

/** A form or JSON image given as a data URL; plain URLs are taken as fetched (a small stand-in). */
function fromString(value: string): Buffer {
  const match = /^data:[^;,]+;base64,(.*)$/s.exec(value);
  if (match) return Buffer.from(match[1] ?? '', 'base64');
  if (/^https?:\/\//.test(value)) return Buffer.from(value);
  throw badRequest('`image` must be a file, a URL or a data URL.', 'invalid_parameter_value', 'image');
}
