/** Image models (spec 2 §2.3): parameters, capabilities and per-image prices. */
export type SupportedParameter =
  | { type: 'enum'; values: (string | number)[]; default: string | number }
  | { type: 'range'; min: number; max: number; default?: number };

export interface ImageModel {
  id: string;
  name: string;
  owned_by: string;
  description: string;
  capabilities: { image_generation: boolean; image_to_image: boolean; inpainting: boolean; nsfw: boolean };
  supported_parameters: Record<string, SupportedParameter>;
  /** USD per image, by resolution. */
  prices: Record<string, number>;
  /** Present when the model takes image input. */
  maxReferences?: number;
}

const SEED: SupportedParameter = { type: 'range', min: 0, max: 2_147_483_647 };

export const IMAGE_MODELS: readonly ImageModel[] = [
  {
    id: 'pixel-lite',
    name: 'Pixel Lite',
    owned_by: 'sandbox',
    description: 'Fast, cheap text-to-image model.',
    capabilities: { image_generation: true, image_to_image: false, inpainting: false, nsfw: false },
    supported_parameters: {
      resolution: { type: 'enum', values: ['512x512', '1024x1024'], default: '1024x1024' },
      n: { type: 'range', min: 1, max: 4, default: 1 },
      aspect_ratio: { type: 'enum', values: ['1:1', '16:9', '9:16'], default: '1:1' },
      output_format: { type: 'enum', values: ['png', 'webp'], default: 'png' },
      seed: SEED,
    },
    prices: { '512x512': 0.001, '1024x1024': 0.002 },
  },
  {
    id: 'sandbox/image-pro',
    name: 'Sandbox Image Pro',
    owned_by: 'sandbox',
    description: 'High-quality text-to-image model with quality levels.',
    capabilities: { image_generation: true, image_to_image: false, inpainting: false, nsfw: false },
    supported_parameters: {
      resolution: { type: 'enum', values: ['1024x1024', '1536x1024', '1024x1536'], default: '1024x1024' },
      n: { type: 'range', min: 1, max: 2, default: 1 },
      quality: { type: 'enum', values: ['low', 'medium', 'high'], default: 'medium' },
      output_format: { type: 'enum', values: ['png', 'jpeg', 'webp'], default: 'png' },
      seed: SEED,
    },
    prices: { '1024x1024': 0.04, '1536x1024': 0.06, '1024x1536': 0.06 },
  },
  {
    id: 'sandbox/image-edit',
    name: 'Sandbox Image Edit',
    owned_by: 'sandbox',
    description: 'Edits and combines images from references; supports inpainting.',
    capabilities: { image_generation: true, image_to_image: true, inpainting: true, nsfw: false },
    supported_parameters: {
      resolution: { type: 'enum', values: ['1024x1024'], default: '1024x1024' },
      n: { type: 'range', min: 1, max: 1, default: 1 },
      aspect_ratio: { type: 'enum', values: ['1:1', '4:3', '3:4'], default: '1:1' },
      output_format: { type: 'enum', values: ['png'], default: 'png' },
      input_references: { type: 'range', min: 0, max: 4, default: 0 },
    },
    prices: { '1024x1024': 0.03 },
    maxReferences: 4,
  },
];

const BY_ID = new Map(IMAGE_MODELS.map((model) => [model.id, model]));

export function findImageModel(id: string): ImageModel | undefined {
  return BY_ID.get(id);
}

/** Image-reference limits of spec 2 §8, for models that take image input. */
export function referenceConstraints(model: ImageModel): Record<string, unknown> | undefined {
  if (!model.maxReferences) return undefined;
  return {
    max_items: model.maxReferences,
    route: {
      min_width: 8,
      min_height: 8,
      max_bytes: 31_457_280,
      formats: ['png', 'jpeg', 'webp'],
      source: 'url_or_data_url',
    },
  };
}
