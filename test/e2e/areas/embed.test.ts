import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, resourceText, startHarness, textOf } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const embeddingRequests = () => h.sandbox.requests.filter((r) => r.path === '/api/v1/embeddings');

/** Reads a .npy v1.0 file as numpy.lib.format does: magic, header length, header, data. */
function readNpy(file: Buffer) {
  expect(file.subarray(0, 8)).toEqual(Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]));
  const length = file.readUInt16LE(8);
  const header = file.subarray(10, 10 + length).toString('latin1');
  const shape = /'shape': \((\d+), (\d+)\)/.exec(header)!;
  const rows = Number(shape[1]);
  const columns = Number(shape[2]);
  const start = 10 + length;
  return {
    header,
    start,
    rows,
    columns,
    row: (r: number) =>
      Array.from({ length: columns }, (_, c) => file.readFloatLE(start + (r * columns + c) * 4)),
  };
}

describe('embed, vectors', () => {
  it('saves the vectors as JSON and as a float32 .npy numpy reads, and puts no vector in the result', async () => {
    h.sandbox.clearRequests();
    const texts = ['satellites in low orbit', 'orbital decay of satellites', 'a recipe for banana bread'];
    const result = await h.call('embed', { input: texts });
    expect(result.isError, textOf(result)).toBeFalsy();
    const r = out(result);
    expect(r).toMatchObject({ model: 'text-embedding-3-small', count: 3, dimensions: 1536 });
    expect(r.cost).toBeGreaterThan(0);
    expect(r.tokens).toBeGreaterThan(0);
    // A small cap of numbers in the context: none of the 4,608 values.
    expect(JSON.stringify(result.structuredContent).match(/-?\d+\.\d{4,}/g) ?? []).toEqual([]);
    expect(textOf(result)).toMatch(
      /^3 vectors of 1536 numbers from text-embedding-3-small, cost [\d.e-]+ USD, saved as JSON and \.npy/,
    );

    const sent = embeddingRequests()[0]!;
    expect(sent.json).toEqual({ model: 'text-embedding-3-small', input: texts, encoding_format: 'base64' });

    const links = result.content.filter((c) => c.type === 'resource_link');
    expect(links.map((l) => l.uri)).toEqual(r.files);
    expect(links.map((l) => l.mimeType)).toEqual(['application/json', 'application/x-npy']);
    const json = await h.client.readResource({ uri: r.files[0] });
    const saved = JSON.parse(resourceText(json.contents[0]));
    expect(saved).toMatchObject({ model: 'text-embedding-3-small', count: 3, dimensions: 1536 });
    expect(saved.embeddings).toHaveLength(3);
    expect(saved.embeddings[2]).toHaveLength(1536);

    const npyRead = await h.client.readResource({ uri: r.files[1] });
    const blob = (npyRead.contents[0] as { blob: string }).blob;
    const npy = readNpy(Buffer.from(blob, 'base64'));
    expect(npy.header).toMatch(/^\{'descr': '<f4', 'fortran_order': False, 'shape': \(3, 1536\), \} *\n$/);
    expect(npy.start % 64).toBe(0);
    expect(npy.row(1)).toEqual(saved.embeddings[1]);
    const norm = Math.hypot(...npy.row(0));
    expect(norm).toBeCloseTo(1, 3);
  });

  it('takes one text, and reduces dimensions on a model that supports it', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('embed', { input: 'orbit', dimensions: 256 });
    expect(out(result)).toMatchObject({ count: 1, dimensions: 256 });
    expect(embeddingRequests()[0]?.json).toMatchObject({ input: ['orbit'], dimensions: 256 });
  });

  it('refuses more than 2,048 inputs before sending', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('embed', { input: Array.from({ length: 2049 }, (_, i) => `text ${i}`) });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /`input` has 2049 texts; one call embeds at most 2048[\s\S]*Split them into batches/,
    );
    expect(embeddingRequests()).toEqual([]);
  });

  it('refuses dimensions on a model without reduction before sending, naming models that have it', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('embed', { input: 'x', model: 'sandbox/embed-lite', dimensions: 128 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/sandbox\/embed-lite does not support `dimensions`/);
    expect(textOf(result)).toMatch(/text-embedding-3-small, text-embedding-3-large/);
    const tooBig = await h.call('embed', { input: 'x', dimensions: 5000 });
    expect(textOf(tooBig)).toMatch(/`dimensions` must be 1\.\.1536 for text-embedding-3-small/);
    expect(embeddingRequests()).toEqual([]);
  });

  it('refuses an unknown model, an empty text, a non-text input and a missing mode before sending', async () => {
    h.sandbox.clearRequests();
    expect(textOf(await h.call('embed', { input: 'x', model: 'nope' }))).toMatch(
      /Unknown embedding model "nope"\. Listed: /,
    );
    expect(textOf(await h.call('embed', { input: ['a', ' '] }))).toMatch(/`input\[1\]` is empty/);
    expect(textOf(await h.call('embed', { input: [1, 2] }))).toMatch(
      /`input` must be a text or a list of texts/,
    );
    expect(textOf(await h.call('embed', {}))).toMatch(
      /Give either `input` \(vectors\) or `query` with `documents`/,
    );
    expect(textOf(await h.call('embed', { query: 'x' }))).toMatch(
      /Ranking needs both `query` and `documents`/,
    );
    expect(embeddingRequests()).toEqual([]);
  });
});

describe('embed, ranking', () => {
  it('ranks documents by cosine similarity to the query, related ones first', async () => {
    h.sandbox.clearRequests();
    const documents = [
      'A recipe for banana bread with walnuts',
      'How satellites stay in orbit around the Earth',
      'Orbital mechanics: satellites, orbits and gravity',
      'Tax rules for small businesses',
    ];
    const result = await h.call('embed', { query: 'why do satellites stay in orbit', documents });
    expect(result.isError, textOf(result)).toBeFalsy();
    const r = out(result);
    expect(r.files).toBeUndefined();
    expect(r.count).toBe(5);
    const order = r.ranked.map((d: { index: number }) => d.index);
    expect(order.slice(0, 2).sort()).toEqual([1, 2]);
    const scores = r.ranked.map((d: { score: number }) => d.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[1]).toBeGreaterThanOrEqual(0.25);
    expect(scores[3]).toBeLessThan(0.15);
    expect(r.ranked[0].text).toBe(documents[r.ranked[0].index]);
    expect(embeddingRequests()[0]?.json).toMatchObject({
      input: ['why do satellites stay in orbit', ...documents],
    });
    expect(textOf(result)).toMatch(
      /^Documents ranked by cosine similarity to the query[\s\S]*\n1\. \[[12]\] 0\.\d{4} /,
    );
  });

  it('shows the best 50 and saves the whole ranking of a longer list', async () => {
    const documents = Array.from(
      { length: 60 },
      (_, i) => `document ${i} about ${i % 2 ? 'orbits' : 'bread'}`,
    );
    const result = await h.call('embed', { query: 'orbits', documents });
    const r = out(result);
    expect(r.ranked).toHaveLength(50);
    expect(r.files).toHaveLength(1);
    const saved = JSON.parse(resourceText((await h.client.readResource({ uri: r.files[0] })).contents[0]));
    expect(saved.ranked).toHaveLength(60);
    expect(saved.ranked[0]).toEqual({ ...r.ranked[0], text: documents[r.ranked[0].index] });
  });
});
