import { describe, expect, it } from 'vitest';
import { DEMO_AUTH, post, useSandbox } from './helpers.js';

type Item = Record<string, unknown> & { id: string };
const ids = (body: { data: Item[] }) => body.data.map((m) => m.id);

describe('sandbox model catalogs', () => {
  const sandbox = useSandbox();
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${sandbox().url}${path}`, { headers });
    expect(res.status).toBe(200);
    return res.json();
  };

  it('lists text models in the minimal shape by default', async () => {
    const body = await get('/api/v1/models');
    expect(body.object).toBe('list');
    expect(body.data.length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(body.data[0]).sort()).toEqual(['created', 'id', 'object', 'owned_by']);
    expect(ids(body)).toEqual(
      expect.arrayContaining(['openai/gpt-sandbox', 'TEE/llama-sandbox', 'sandbox/reasoner']),
    );
  });

  it('adds details, capabilities and per-million pricing with detailed=true', async () => {
    const body = await get('/api/v1/models?detailed=true');
    const model = body.data.find((m: Item) => m.id === 'openai/gpt-sandbox');
    expect(model).toMatchObject({
      name: expect.any(String),
      description: expect.any(String),
      context_length: expect.any(Number),
      max_output_tokens: expect.any(Number),
      capabilities: expect.any(Object),
      supported_service_tiers: ['flex', 'fast', 'priority'],
      pricing: { prompt: 2.5, completion: 10, unit: 'per_million_tokens' },
      category: 'general',
    });
  });

  it('puts the key’s recent models first with sort=favorites, and ignores it without a valid key', async () => {
    const plain = ids(await get('/api/v1/models'));
    const favorites = ids(await get('/api/v1/models?sort=favorites', DEMO_AUTH));
    expect(favorites.slice(0, 2)).toEqual(['sandbox/reasoner', 'anthropic/claude-sandbox']);
    expect(ids(await get('/api/v1/models?sort=favorites'))).toEqual(plain);
    expect(ids(await get('/api/v1/models?sort=favorites', { authorization: 'Bearer bad' }))).toEqual(plain);
  });

  it('moves a model to the front of favorites once the key uses it', async () => {
    const key = sandbox().state.createKey();
    await post(
      sandbox(),
      '/api/v1/chat/completions',
      { model: 'mistral/mistral-sandbox', messages: [{ role: 'user', content: 'hi' }] },
      { 'x-api-key': key },
    );
    expect(ids(await get('/api/v1/models?sort=favorites', { 'x-api-key': key }))[0]).toBe(
      'mistral/mistral-sandbox',
    );
  });

  it('orders by global rank with sort=mostused, unranked models last, and ignores unknown sorts', async () => {
    const mostUsed = ids(await get('/api/v1/models?sort=mostused'));
    expect(mostUsed.slice(0, 3)).toEqual([
      'openai/gpt-sandbox',
      'openai/gpt-sandbox-mini',
      'anthropic/claude-sandbox',
    ]);
    expect(mostUsed.slice(-3)).toEqual([
      'mistral/mistral-sandbox',
      'TEE/llama-sandbox',
      'TEE/deepseek-sandbox',
    ]);
    expect(ids(await get('/api/v1/models?sort=alphabetical'))).toEqual(ids(await get('/api/v1/models')));
  });

  it('splits the catalog into subscription and paid models', async () => {
    const all = ids(await get('/api/v1/models'));
    const included = ids(await get('/api/subscription/v1/models'));
    const paid = ids(await get('/api/paid/v1/models'));
    expect(included).toContain('openai/gpt-sandbox');
    expect(paid).toContain('TEE/llama-sandbox');
    expect([...included, ...paid].sort()).toEqual([...all].sort());
  });

  it('shows an active subscriber only included models unless the paid-models preference is on', async () => {
    const subscriber = sandbox().state.createKey({ subscriber: true });
    const withPaid = sandbox().state.createKey({ subscriber: true, showPaidModels: true });
    expect(ids(await get('/api/v1/models', { 'x-api-key': subscriber }))).toEqual(
      ids(await get('/api/subscription/v1/models')),
    );
    expect(ids(await get('/api/v1/models', { 'x-api-key': withPaid }))).toEqual(
      ids(await get('/api/v1/models')),
    );
  });

  it('lists image, video, audio and embedding models', async () => {
    expect(ids(await get('/api/v1/image-models'))).toEqual([
      'pixel-lite',
      'sandbox/image-pro',
      'sandbox/image-edit',
    ]);
    expect(ids(await get('/api/v1/video-models'))).toEqual(['sandbox/video-lite', 'sandbox/video-pro']);
    const audio = (await get('/api/v1/audio-models')).data as Item[];
    expect(audio.map((m) => [m.id, m.type, m.async])).toEqual([
      ['tts-mini', 'tts', false],
      ['tts-studio', 'tts', true],
      ['music-lite', 'music', false],
      ['whisper-sandbox', 'transcription', false],
      ['scribe-async', 'transcription', true],
    ]);
    const embeddings = (await get('/api/v1/embedding-models')).data as Item[];
    expect(embeddings[0]).toMatchObject({
      id: 'text-embedding-3-small',
      dimensions: 1536,
      supports_dimensions: true,
    });
  });

  it('describes image models with supported parameters and an endpoints URL', async () => {
    const body = await get('/api/v1/images/models');
    expect(body.meta).toEqual({ count: 3, generated_at: expect.any(String) });
    const pro = body.data.find((m: Item) => m.id === 'sandbox/image-pro');
    expect(pro).toMatchObject({
      supports_streaming: false,
      category: 'image',
      architecture: { input_modalities: ['text'], output_modalities: ['image'] },
      capabilities: { image_generation: true, image_to_image: false, inpainting: false, nsfw: false },
      endpoints: `${sandbox().url}/api/v1/images/models/sandbox/image-pro/endpoints`,
    });
    expect(pro.supported_parameters.quality).toEqual({
      type: 'enum',
      values: ['low', 'medium', 'high'],
      default: 'medium',
    });
    expect(pro.supported_parameters.n).toEqual({ type: 'range', min: 1, max: 2, default: 1 });
  });

  it('serves endpoint metadata by the listed URL, with reference constraints for image-input models', async () => {
    const list = await get('/api/v1/images/models');
    const edit = list.data.find((m: Item) => m.id === 'sandbox/image-edit');
    const meta = await (await fetch(edit.endpoints)).json();
    expect(meta.id).toBe('sandbox/image-edit');
    expect(meta.endpoints[0]).toMatchObject({
      provider_tag: null,
      allowed_passthrough_parameters: [],
      supports_streaming: false,
      pricing: [{ billable: 'image', unit: 'per_image', cost_usd: 0.03, resolution: '1024x1024' }],
      input_reference_constraints: { max_items: 4, route: { max_bytes: 31_457_280 } },
    });
    const lite = await get('/api/v1/images/models/pixel-lite/endpoints');
    expect(lite.endpoints[0].input_reference_constraints).toBeUndefined();
    expect((await get('/api/v1/images/models/sandbox%2Fimage-pro/endpoints')).id).toBe('sandbox/image-pro');
  });

  it('lists providers with prices for a canonical id that contains a slash, percent-encoded', async () => {
    const body = await get('/api/models/openai%2Fgpt-sandbox/providers');
    expect(body.model).toBe('openai/gpt-sandbox');
    expect(body.data.map((p: { provider_slug: string }) => p.provider_slug)).toEqual([
      'sandbox-cloud',
      'swift-inference',
      'budget-compute',
    ]);
    expect(body.data[0].pricing).toEqual({ prompt: 2.5, completion: 10, unit: 'per_million_tokens' });
    expect(body.data[2]).toMatchObject({ supports_caching: false, status: 'available' });
    const missing = await fetch(`${sandbox().url}/api/models/nope%2Fmodel/providers`);
    expect(missing.status).toBe(404);
    // Sent with its slash, the id is a longer path (the platform's reference, issue 32).
    const unencoded = await fetch(`${sandbox().url}/api/models/openai/gpt-sandbox/providers`);
    expect(unencoded.status).toBe(404);
  });
});
