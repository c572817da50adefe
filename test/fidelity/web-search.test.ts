import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 25: structured web search sends `structuredOutputSchema` (GAPS, required for structured) and
// reads the structured answer from where it comes (`structured`, or `data` as GAPS shows); `depth`.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({});
});
afterAll(async () => {
  await h.close();
});

const sent = () =>
  h.sandbox.requests.filter((r) => r.path === '/api/web').at(-1)?.json as Record<string, unknown>;
const schema = { type: 'object', properties: { summary: { type: 'string' }, keyPoints: { type: 'array' } } };

describe('web_search structured and depth', () => {
  it('sends the schema as a JSON string and returns the structured answer', async () => {
    const result = await h.call('web_search', { query: 'tides', output: 'structured', schema });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sent().structuredOutputSchema).toBe(JSON.stringify(schema));
    expect(out(result).structured).toMatchObject({
      summary: expect.stringContaining('tides'),
      keyPoints: expect.any(Array),
    });
  });

  it('reads the structured answer from `data` when the platform puts it there', async () => {
    h.sandbox.faults.add({
      match: { path: '/api/web' },
      reshape: {
        drop: ['structured', 'cost'],
        set: { data: { summary: 'from data' }, metadata: { cost: '0.006' } },
      },
    });
    const result = await h.call('web_search', {
      query: 'tides',
      output: 'structured',
      schema: JSON.stringify(schema),
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result)).toMatchObject({ structured: { summary: 'from data' }, cost: 0.006 });
  });

  it('refuses structured output without a schema before sending', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('web_search', { query: 'tides', output: 'structured' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/needs `schema`/);
    expect(h.sandbox.requests.filter((r) => r.path === '/api/web')).toHaveLength(0);
  });

  it('sends depth and pays the deep price; one spoiled result is left out and named', async () => {
    h.sandbox.faults.add({
      match: { path: '/api/web' },
      reshape: { set: { 'results.1': { title: 'no url' } } },
    });
    const result = await h.call('web_search', { query: 'tides', depth: 'deep', limit: 3 });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sent().depth).toBe('deep');
    expect(out(result).cost).toBe(0.06);
    expect(out(result).not_usable).toBe('1 result not usable: no url has no url');
    expect(out(result).results).toHaveLength(3);
  });
});
