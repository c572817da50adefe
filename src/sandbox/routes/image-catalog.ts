import type { Context, Hono } from 'hono';
import {
  findImageModel,
  IMAGE_MODELS,
  type ImageModel,
  referenceConstraints,
} from '../catalog/image-models.js';
import { CATALOG_CREATED } from '../constants.js';
import { SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/** Image API catalog (spec 2 §2.3, §4.4a); no auth. Ids may contain slashes. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/v1/images', 'image');

  app.get('/api/v1/images/models', (c) =>
    c.json({
      object: 'list',
      data: IMAGE_MODELS.map((m) => listItem(c, m)),
      meta: { count: IMAGE_MODELS.length, generated_at: new Date(ctx.now()).toISOString() },
    }),
  );

  app.get('/api/v1/images/models/:id{.+}/endpoints', (c) => {
    const id = decodeURIComponent(c.req.param('id'));
    const model = findImageModel(id);
    if (!model) {
      throw new SandboxError(404, `Image model "${id}" not found. List them at /api/v1/images/models.`, {
        code: 'model_not_found',
      });
    }
    const constraints = referenceConstraints(model);
    return c.json({
      id: model.id,
      endpoints: [
        {
          provider_name: 'Sandbox Images',
          provider_slug: 'sandbox-images',
          provider_tag: null,
          supported_parameters: model.supported_parameters,
          allowed_passthrough_parameters: [],
          supports_streaming: false,
          pricing: Object.entries(model.prices).map(([resolution, cost_usd]) => ({
            billable: 'image',
            unit: 'per_image',
            cost_usd,
            resolution,
          })),
          ...(constraints ? { input_reference_constraints: constraints } : {}),
        },
      ],
    });
  });
}

function listItem(c: Context<SandboxEnv>, m: ImageModel): Record<string, unknown> {
  const origin = new URL(c.req.url).origin;
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    created: CATALOG_CREATED,
    owned_by: m.owned_by,
    architecture: {
      input_modalities: m.capabilities.image_to_image ? ['text', 'image'] : ['text'],
      output_modalities: ['image'],
    },
    supported_parameters: m.supported_parameters,
    supports_streaming: false,
    endpoints: `${origin}/api/v1/images/models/${m.id}/endpoints`,
    capabilities: m.capabilities,
    category: 'image',
  };
}
