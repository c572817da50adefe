import { describe, expect, it } from 'vitest';
import { post, useSandbox } from './helpers.js';

type Embedding = { object: string; index: number; embedding: number[] };

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
};
const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));

describe('sandbox embeddings', () => {
  const sandbox = useSandbox();
  const embed = async (body: Record<string, unknown>, key = 'sk-orbit-sandbox-demo') => {
    const res = await post(sandbox(), '/api/v1/embeddings', body, { authorization: `Bearer ${key}` });
    return { res, body: await res.json() };
  };
  const vectors = async (model: string, input: string[], extra: Record<string, unknown> = {}) =>
    ((await embed({ model, input, ...extra })).body.data as Embedding[]).map((d) => d.embedding);

  it('embeds one string into a unit vector of the model size, with usage and a charge', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const text = 'Satellites stay in orbit because their speed balances gravity.';
    const { res, body } = await embed({ model: 'text-embedding-3-small', input: text }, key);
    expect(res.status).toBe(200);
    const tokens = Math.ceil(text.length / 4);
    expect(body).toMatchObject({
      object: 'list',
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
      x_orbit_pricing: { currency: 'USD', inputTokens: tokens },
    });
    const [item] = body.data as Embedding[];
    expect(item).toMatchObject({ object: 'embedding', index: 0 });
    expect(item?.embedding).toHaveLength(1536);
    expect(norm(item!.embedding)).toBeCloseTo(1, 5);
    expect(sandbox().state.spent(key)).toBeCloseTo((tokens * 0.02) / 1e6, 12);
  });

  it('answers inputs by index, deterministically, and differently per model', async () => {
    const input = ['first text', 'second text', 'third text'];
    const { body } = await embed({ model: 'sandbox/embed-lite', input });
    expect((body.data as Embedding[]).map((d) => d.index)).toEqual([0, 1, 2]);
    expect((body.data as Embedding[]).every((d) => d.embedding.length === 384)).toBe(true);
    expect(await vectors('sandbox/embed-lite', input)).toEqual(
      (body.data as Embedding[]).map((d) => d.embedding),
    );
    const small = await vectors('text-embedding-3-small', ['first text'], { dimensions: 384 });
    expect(small[0]).not.toEqual((body.data as Embedding[])[0]?.embedding);
  });

  it.each([
    ['text-embedding-3-small', {}],
    ['text-embedding-3-large', { dimensions: 256 }],
    ['sandbox/embed-lite', {}],
  ])('%s scores related texts above unrelated ones', async (model, extra) => {
    const [query, related, paraphrase, cake, stocks] = await vectors(
      model,
      [
        'How do satellites stay in orbit around the Earth?',
        'Satellites remain in orbit because their orbital speed balances Earth gravity.',
        'An orbiting satellite circles the Earth.',
        'A recipe for chocolate cake with butter and sugar.',
        'The stock market fell sharply on Monday morning.',
      ],
      extra,
    );
    const score = (v: number[] | undefined) => cosine(query!, v!);
    expect(score(related)).toBeGreaterThan(0.25);
    expect(score(paraphrase)).toBeGreaterThan(0.25);
    expect(Math.abs(score(cake))).toBeLessThan(0.15);
    expect(Math.abs(score(stocks))).toBeLessThan(0.15);
    expect(Math.min(score(related), score(paraphrase))).toBeGreaterThan(
      Math.max(score(cake), score(stocks)) + 0.15,
    );
  });

  it('shortens vectors with `dimensions` on models that support it, still unit length', async () => {
    const [short] = await vectors('text-embedding-3-large', ['orbital mechanics'], { dimensions: 256 });
    expect(short).toHaveLength(256);
    expect(norm(short!)).toBeCloseTo(1, 5);
  });

  it('refuses `dimensions` on a model without reduction, naming the models that have it', async () => {
    const { res, body } = await embed({ model: 'sandbox/embed-lite', input: 'x', dimensions: 128 });
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'dimensions' });
    expect(body.error.message).toMatch(/text-embedding-3-small, text-embedding-3-large/);
    for (const dimensions of [0, 1537, 1.5, '256']) {
      const bad = await embed({ model: 'text-embedding-3-small', input: 'x', dimensions });
      expect(bad.res.status, String(dimensions)).toBe(400);
      expect(bad.body.error.param).toBe('dimensions');
    }
  });

  it('returns little-endian float32 bytes in base64 with encoding_format: base64', async () => {
    const input = ['orbits', 'tides'];
    const floats = await vectors('sandbox/embed-lite', input);
    const { body } = await embed({ model: 'sandbox/embed-lite', input, encoding_format: 'base64' });
    (body.data as { embedding: string }[]).forEach((item, i) => {
      const bytes = Buffer.from(item.embedding, 'base64');
      expect(bytes.byteLength).toBe(384 * 4);
      const decoded = Array.from({ length: 384 }, (_, j) => bytes.readFloatLE(j * 4));
      expect(decoded).toEqual(floats[i]);
    });
    const bad = await embed({ model: 'sandbox/embed-lite', input, encoding_format: 'hex' });
    expect(bad.body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'encoding_format' });
  });

  it('takes up to 2048 inputs and refuses 2049', async () => {
    const many = Array.from({ length: 2048 }, (_, i) => `text ${i}`);
    const ok = await embed({ model: 'sandbox/embed-lite', input: many, encoding_format: 'base64' });
    expect(ok.res.status).toBe(200);
    expect(ok.body.data).toHaveLength(2048);
    expect(ok.body.data[2047].index).toBe(2047);
    const tooMany = await embed({ model: 'sandbox/embed-lite', input: [...many, 'one more'] });
    expect(tooMany.res.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'input' });
    expect(tooMany.body.error.message).toMatch(/2049 items; at most 2048/);
  });

  it('answers 400 for missing, empty, non-string and over-long inputs and unknown models', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ model: 'sandbox/embed-lite' }, 'missing_required_parameter', 'input'],
      [{ model: 'sandbox/embed-lite', input: [] }, 'invalid_parameter_value', 'input'],
      [{ model: 'sandbox/embed-lite', input: ['ok', 7] }, 'invalid_parameter_value', 'input'],
      [{ model: 'sandbox/embed-lite', input: '  ' }, 'invalid_parameter_value', 'input'],
      [{ model: 'sandbox/embed-lite', input: 'x'.repeat(2049) }, 'context_length_exceeded', 'input'],
      [{ input: 'x' }, 'missing_required_parameter', 'model'],
      [{ model: 'openai/gpt-sandbox', input: 'x' }, 'model_not_found', 'model'],
    ];
    for (const [request, code, param] of cases) {
      const { res, body } = await embed(request);
      expect(res.status, JSON.stringify(request).slice(0, 80)).toBe(400);
      expect(body.error).toMatchObject({ code, param });
    }
  });

  it('needs a key and a balance', async () => {
    const anonymous = await post(
      sandbox(),
      '/api/v1/embeddings',
      { model: 'sandbox/embed-lite', input: 'x' },
      {},
    );
    expect(anonymous.status).toBe(401);
    const broke = sandbox().state.createKey({ balance: 0 });
    const { res, body } = await embed({ model: 'text-embedding-3-large', input: 'x'.repeat(4000) }, broke);
    expect(res.status).toBe(402);
    expect(body).toEqual({ error: 'Insufficient balance', requiredBalance: 0.00013, status: 402 });
  });

  it('lists embedding models with dimensions, reduction, token limits, batch size and prices', async () => {
    const { data } = await (await fetch(`${sandbox().url}/api/v1/embedding-models`)).json();
    const small = data.find((m: { id: string }) => m.id === 'text-embedding-3-small');
    expect(small).toMatchObject({
      object: 'model',
      type: 'embedding',
      dimensions: 1536,
      supports_dimensions: true,
      min_dimensions: 1,
      max_input_tokens: 8191,
      max_inputs: 2048,
      encoding_formats: ['float', 'base64'],
      pricing: { prompt: 0.02, unit: 'per_million_tokens' },
    });
    const lite = data.find((m: { id: string }) => m.id === 'sandbox/embed-lite');
    expect(lite).toMatchObject({ supports_dimensions: false, dimensions: 384 });
    expect(lite.min_dimensions).toBeUndefined();
  });
});
