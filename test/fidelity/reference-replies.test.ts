import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 32 item 5: replies shaped as the platform's published reference shows them, served as
// they are (a fault's verbatim body or a reshape of the sandbox's own), so each case fails on a
// client that reads them otherwise, whatever the sandbox answers itself.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'all' } });
});
afterAll(async () => {
  await h.close();
});

const ok = async (name: string, args: Record<string, unknown>) => {
  const result = await h.call(name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return result;
};
/** The next request to this route is answered with `body`, as the platform sent it. */
const serve = (method: string, path: string, body: unknown) =>
  h.sandbox.faults.add({ match: { method, path }, status: 200, body });

describe('web_search, sourced answer', () => {
  it('reads the answer and sources nested under data', async () => {
    serve('POST', '/api/web', {
      data: {
        answer: 'Rayleigh scattering makes the sky blue [1].',
        sources: [
          { title: 'Why the sky is blue', url: 'https://example.org/sky', snippet: 'Short waves scatter.' },
        ],
      },
      metadata: { query: 'why is the sky blue', outputType: 'sourcedAnswer', cost: 0.006 },
    });
    const got = out(await ok('web_search', { query: 'why is the sky blue', output: 'sourcedAnswer' }));
    expect(got).toMatchObject({
      answer: 'Rayleigh scattering makes the sky blue [1].',
      results: [
        { title: 'Why the sky is blue', url: 'https://example.org/sky', snippet: 'Short waves scatter.' },
      ],
      cost: 0.006,
    });
  });
});

describe('x402_endpoints', () => {
  it('lists each route named by endpoint, with the rails of each row', async () => {
    serve('GET', '/api/v1/x402/endpoints', {
      data: [
        {
          method: 'POST',
          endpoint: '/api/v1/data/web/search',
          pricing: '0.006 USD per search',
          schemes: ['x402-exact', 'lightning-l402'],
        },
        { method: 'POST', endpoint: '/api/v1/data/url/scrape', schemes: ['base-usdc'] },
        { method: 'POST', description: 'names no route' },
      ],
    });
    expect(out(await ok('x402_endpoints', {})).routes).toEqual([
      'POST /api/v1/data/web/search: 0.006 USD per search (web_search); rails: x402-exact, lightning-l402',
      'POST /api/v1/data/url/scrape (data_call endpoint url.scrape); rails: base-usdc',
      '(1 route not usable: #3 names no route)',
    ]);
  });
});
