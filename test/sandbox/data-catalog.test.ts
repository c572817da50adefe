import { describe, expect, it } from 'vitest';
import { RAILS } from '../../src/sandbox/x402/rails.js';
import { useSandbox } from './helpers.js';

type Entry = Record<string, unknown> & { id: string; methods: string[]; endpoint: string; category: string };

const EXPECTED: [string, string, string[], string][] = [
  ['web.search', '/web/search', ['POST'], 'search'],
  ['url.scrape', '/url/scrape', ['POST'], 'scraping'],
  ['crawler', '/crawler', ['POST'], 'scraping'],
  ['maps.search', '/maps/search', ['GET', 'POST'], 'maps'],
  ['maps.reviews', '/maps/reviews', ['POST'], 'maps'],
  ['forum.scrape', '/forum', ['POST'], 'social'],
  ['professional.profile', '/professional/profile', ['POST'], 'business'],
  ['photo.profile', '/photo/profile', ['POST'], 'social'],
  ['photo.posts', '/photo/posts', ['POST'], 'social'],
  ['photo.reels', '/photo/reels', ['POST'], 'social'],
  ['shortvideo.scrape', '/shortvideo', ['POST'], 'social'],
  ['microblog.read', '/microblog', ['GET', 'POST'], 'social'],
  ['contacts.discover', '/contacts/discover', ['POST'], 'business'],
  ['contacts.domain_search', '/contacts/domain-search', ['GET', 'POST'], 'business'],
  ['contacts.email_finder', '/contacts/email-finder', ['GET', 'POST'], 'business'],
  ['contacts.email_verifier', '/contacts/email-verifier', ['GET', 'POST'], 'business'],
  ['contacts.person_enrichment', '/contacts/people/find', ['GET', 'POST'], 'business'],
  ['contacts.company_enrichment', '/contacts/companies/find', ['GET', 'POST'], 'business'],
  ['contacts.combined_enrichment', '/contacts/combined/find', ['GET', 'POST'], 'business'],
  ['contacts.email_count', '/contacts/email-count', ['GET', 'POST'], 'business'],
];

describe('sandbox data API catalog', () => {
  const sandbox = useSandbox();
  const catalog = async (path = '/api/v1/data/endpoints') => {
    const res = await fetch(`${sandbox().url}${path}`);
    return { res, body: await res.json() };
  };

  it('lists the 20 endpoints of spec 1 §4.5 with every catalog field, in order', async () => {
    const { res, body } = await catalog();
    expect(res.status).toBe(200);
    expect(body.object).toBe('list');
    const entries = body.data as Entry[];
    expect(entries.map((e) => [e.id, e.endpoint, e.methods, e.category])).toEqual(
      EXPECTED.map(([id, path, methods, category]) => [id, `/api/v1/data${path}`, methods, category]),
    );
    for (const entry of entries) {
      expect(entry).toEqual({
        id: entry.id,
        object: 'data.endpoint',
        name: expect.any(String),
        description: expect.any(String),
        category: entry.category,
        provider: expect.any(String),
        methods: entry.methods,
        endpoint: entry.endpoint,
        url: `${sandbox().url}${entry.endpoint}`,
        direct_endpoint: expect.stringMatching(/^\/api\//),
        pricing: expect.any(String),
        status: 'available',
      });
    }
    const byId = new Map(entries.map((e) => [e.id, e]));
    expect(byId.get('web.search')?.direct_endpoint).toBe('/api/web');
    expect(byId.get('url.scrape')?.direct_endpoint).toBe('/api/scrape-urls');
    expect(byId.get('contacts.discover')?.pricing).toMatch(/free/i);
    expect(byId.get('contacts.email_count')?.pricing).toMatch(/free/i);
    expect(byId.get('url.scrape')?.pricing).toMatch(/stealth/);
    expect(byId.get('crawler')?.pricing).toMatch(/credit/i);
  });

  it('describes the catalog in meta: count, providers, categories and the dispatch shape', async () => {
    const { body } = await catalog();
    expect(body.meta).toEqual({
      count: 20,
      providers: expect.arrayContaining([expect.any(String)]),
      categories: ['search', 'scraping', 'maps', 'social', 'business'],
      dispatch: {
        path: '/api/v1/data',
        method: 'POST',
        body: { endpoint: 'web.search', input: { query: expect.any(String) } },
      },
    });
    const providers = new Set((body.data as Entry[]).map((e) => e.provider));
    expect(new Set(body.meta.providers)).toEqual(providers);
  });

  it('serves the same catalog at /api/v1/data, cacheable for 300 s and stale for 3600 s', async () => {
    const [root, endpoints] = [await catalog('/api/v1/data'), await catalog()];
    expect(root.body).toEqual(endpoints.body);
    for (const { res } of [root, endpoints]) {
      expect(res.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=3600');
    }
  });

  it('answers the catalog without credentials and never records a charge', async () => {
    const before = sandbox().state.balance('sk-orbit-sandbox-demo');
    const { res } = await catalog();
    expect(res.status).toBe(200);
    expect(sandbox().state.balance('sk-orbit-sandbox-demo')).toBe(before);
  });

  it('answers a GET on a POST-only endpoint with its metadata: entry, input schema and example', async () => {
    for (const [id, path, methods] of EXPECTED.filter(([, , methods]) => !methods.includes('GET'))) {
      const res = await fetch(`${sandbox().url}/api/v1/data${path}`);
      expect(res.status, id).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ id, object: 'data.endpoint', methods, status: 'available' });
      expect(body.input.schema).toMatchObject({ type: 'object', properties: expect.any(Object) });
      expect(Object.keys(body.input.example).length, id).toBeGreaterThan(0);
      expect(body.usage.body_style.body).toEqual({ endpoint: id, input: body.input.example });
      expect(res.headers.get('x-orbit-data-endpoint')).toBeNull();
    }
  });

  it('names the required inputs of url.scrape and web.search in their metadata', async () => {
    const scrape = await (await fetch(`${sandbox().url}/api/v1/data/url/scrape`)).json();
    expect(scrape.input.schema.required).toEqual(['urls']);
    expect(scrape.input.schema.properties.urls).toMatchObject({ type: 'array', maxItems: 5 });
    const search = await (await fetch(`${sandbox().url}/api/v1/data/web/search`)).json();
    expect(search.input.schema.required).toEqual(['query']);
    expect(search.input.schema.properties.outputType.enum).toEqual([
      'searchResults',
      'sourcedAnswer',
      'structured',
    ]);
  });

  it('lists the accountless routes at /api/v1/x402/endpoints, the data routes among them', async () => {
    const res = await fetch(`${sandbox().url}/api/v1/x402/endpoints`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.x402Version).toBe(1);
    // Each row names its route `endpoint` and lists its rails (the platform's reference, issue 32).
    for (const row of body.data) expect(row.schemes).toEqual(RAILS);
    expect(body.data.map((r: { method: string; endpoint: string }) => `${r.method} ${r.endpoint}`)).toEqual([
      'POST /api/web',
      'POST /api/v1/data/web/search',
      'POST /api/v1/data/url/scrape',
      'POST /api/scrape-urls',
    ]);
    expect(body.data[1]).toMatchObject({
      dataEndpoint: 'web.search',
      url: `${sandbox().url}/api/v1/data/web/search`,
    });
  });
});
