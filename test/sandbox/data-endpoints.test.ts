import { describe, expect, it } from 'vitest';
import { post, useSandbox } from './helpers.js';

type Body = Record<string, unknown> & { cost: number; x_orbit_pricing: Record<string, unknown> };
type Check = (body: Body) => void;

const list = (body: Body, key: string) => body[key] as Record<string, unknown>[];

/** One realistic call per catalog entry: its data path, input, price and what the reply holds. */
const CALLS: [string, string, Record<string, unknown>, number, Check][] = [
  [
    'web.search',
    '/web/search',
    { query: 'orbital debris' },
    0.006,
    (b) => expect(list(b, 'results')).toHaveLength(5),
  ],
  [
    'url.scrape',
    '/url/scrape',
    { urls: ['https://example.com/blog/launch-notes'] },
    0.002,
    (b) => expect(list(b, 'results')[0]).toMatchObject({ success: true, title: 'Launch Notes | Example' }),
  ],
  [
    'crawler',
    '/crawler',
    { url: 'https://docs.example.com', maxPages: 3 },
    0.0036,
    (b) => expect(list(b, 'pages')).toHaveLength(3),
  ],
  [
    'maps.search',
    '/maps/search',
    { query: 'coffee', location: 'Lisbon', limit: 3 },
    0.0036,
    (b) => {
      expect(list(b, 'places')).toHaveLength(3);
      for (const place of list(b, 'places')) {
        expect(place).toMatchObject({
          placeId: expect.stringMatching(/^place_/),
          address: expect.stringContaining('Lisbon'),
        });
        expect(place.rating).toBeGreaterThanOrEqual(3.2);
        expect(place.rating).toBeLessThanOrEqual(5);
      }
    },
  ],
  [
    'maps.reviews',
    '/maps/reviews',
    { placeId: 'place_abc', limit: 12, sort: 'newest' },
    0.0024,
    (b) => {
      const dates = list(b, 'reviews').map((r) => r.publishedAt as string);
      expect(dates).toHaveLength(12);
      expect(dates).toEqual([...dates].sort().reverse());
    },
  ],
  [
    'forum.scrape',
    '/forum',
    { community: 'space', limit: 2 },
    0.0048,
    (b) => expect(list(b, 'threads')[0]).toMatchObject({ community: 'space', comments: expect.any(Array) }),
  ],
  [
    'professional.profile',
    '/professional/profile',
    { username: 'ada-lovelace' },
    0.012,
    (b) =>
      expect(b.profile).toMatchObject({
        username: 'ada_lovelace',
        experience: expect.any(Array),
        skills: expect.any(Array),
      }),
  ],
  [
    'photo.profile',
    '/photo/profile',
    { username: 'nasa' },
    0.0024,
    (b) => expect(b.profile).toMatchObject({ username: 'nasa', followers: expect.any(Number) }),
  ],
  [
    'photo.posts',
    '/photo/posts',
    { username: 'nasa', limit: 3 },
    0.0036,
    (b) => expect(list(b, 'posts')).toHaveLength(3),
  ],
  [
    'photo.reels',
    '/photo/reels',
    { username: 'nasa', limit: 2 },
    0.0024,
    (b) =>
      expect(list(b, 'reels')[0]).toMatchObject({
        plays: expect.any(Number),
        videoUrl: expect.stringMatching(/\.mp4$/),
      }),
  ],
  [
    'shortvideo.scrape',
    '/shortvideo',
    { hashtag: 'astronomy', limit: 4 },
    0.0048,
    (b) => expect(list(b, 'videos')).toHaveLength(4),
  ],
  [
    'microblog.read',
    '/microblog',
    { username: 'esa', limit: 10 },
    0.0024,
    (b) => expect(list(b, 'posts')).toHaveLength(10),
  ],
  [
    'contacts.discover',
    '/contacts/discover',
    { domain: 'example.com' },
    0,
    (b) => expect(b).toMatchObject({ company: { name: 'Example' }, people: expect.any(Array) }),
  ],
  [
    'contacts.domain_search',
    '/contacts/domain-search',
    { domain: 'example.com', limit: 3 },
    0.01,
    (b) => expect(list(b, 'emails')).toHaveLength(3),
  ],
  [
    'contacts.email_finder',
    '/contacts/email-finder',
    { domain: 'example.com', first_name: 'Ada', last_name: 'Lovelace' },
    0.01,
    (b) => expect(b.email).toBe('ada.lovelace@example.com'),
  ],
  [
    'contacts.email_verifier',
    '/contacts/email-verifier',
    { email: 'ada@gmail.com' },
    0.003,
    (b) => expect(b).toMatchObject({ status: 'webmail', result: 'deliverable' }),
  ],
  [
    'contacts.person_enrichment',
    '/contacts/people/find',
    { email: 'ada.lovelace@example.com' },
    0.02,
    (b) => expect(b.person).toMatchObject({ fullName: 'Ada Lovelace', company: 'Example' }),
  ],
  [
    'contacts.company_enrichment',
    '/contacts/companies/find',
    { domain: 'example.com' },
    0.02,
    (b) => expect(b.company).toMatchObject({ name: 'Example', domain: 'example.com' }),
  ],
  [
    'contacts.combined_enrichment',
    '/contacts/combined/find',
    { email: 'ada.lovelace@example.com' },
    0.035,
    (b) => expect(b).toMatchObject({ person: { fullName: 'Ada Lovelace' }, company: { name: 'Example' } }),
  ],
  [
    'contacts.email_count',
    '/contacts/email-count',
    { domain: 'example.com' },
    0,
    (b) => expect(b.total).toBe((b.personal_emails as number) + (b.generic_emails as number)),
  ],
];

describe('sandbox data API endpoints', () => {
  const sandbox = useSandbox({ timing: { crawlPageMs: 0 } });
  const call = async (path: string, input: unknown, key: string) => {
    const res = await post(sandbox(), `/api/v1/data${path}`, input, { 'x-api-key': key });
    return { res, body: (await res.json()) as Body };
  };

  it.each(CALLS)(
    '%s answers a realistic, deterministic reply and debits its price',
    async (id, path, input, price, check) => {
      const key = sandbox().state.createKey({ balance: 1 });
      const first = await call(path, input, key);
      expect(first.res.status).toBe(200);
      expect(first.res.headers.get('x-orbit-data-endpoint')).toBe(id);
      check(first.body);
      expect(sandbox().state.spent(key)).toBeCloseTo(price, 9);
      if (id !== 'web.search') {
        expect(first.body.cost).toBeCloseTo(price, 9);
        expect(first.body.x_orbit_pricing).toMatchObject({
          amount: first.body.cost,
          currency: 'USD',
          paymentSource: 'USD',
        });
      }
      const again = await call(path, input, key);
      expect(again.body).toEqual(first.body);
    },
  );

  it('serves GET-capable endpoints from query parameters with the same reply as POST', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    for (const [, path, input] of CALLS.filter(
      ([id]) => id.startsWith('contacts.') || id === 'maps.search',
    )) {
      if (path === '/contacts/discover') continue;
      const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]));
      const viaGet = await fetch(`${sandbox().url}/api/v1/data${path}?${query}`, {
        headers: { 'x-api-key': key },
      });
      expect(viaGet.status, path).toBe(200);
      expect(await viaGet.json()).toEqual((await call(path, input, key)).body);
    }
  });

  it('answers 402 with the legacy balance body when the balance is short, and charges nothing', async () => {
    const key = sandbox().state.createKey({ balance: 0.001 });
    const { res, body } = await call('/professional/profile', { username: 'ada' }, key);
    expect(res.status).toBe(402);
    expect(body).toEqual({ error: 'Insufficient balance', requiredBalance: 0.012, status: 402 });
    expect(sandbox().state.balance(key)).toBe(0.001);
  });

  it('serves the free contact endpoints with an empty balance', async () => {
    const key = sandbox().state.createKey({ balance: 0 });
    for (const path of ['/contacts/discover', '/contacts/email-count']) {
      const { res, body } = await call(path, { domain: 'example.com' }, key);
      expect(res.status, path).toBe(200);
      expect(body.cost).toBe(0);
    }
  });

  it('charges nothing when a contact lookup finds nothing', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const finder = await call(
      '/contacts/email-finder',
      { domain: 'nobody.invalid', first_name: 'A', last_name: 'B' },
      key,
    );
    expect(finder.body).toMatchObject({ email: null, score: 0, cost: 0 });
    const person = await call('/contacts/people/find', { email: 'x@nowhere.invalid' }, key);
    expect(person.body).toMatchObject({ person: null, cost: 0 });
    expect(sandbox().state.spent(key)).toBe(0);
  });

  it('verifies emails: bad syntax, no mail server, disposable, webmail, deliverable', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const statuses = [];
    for (const email of ['not-an-email', 'a@nowhere.invalid', 'a@mailinator.com', 'a@gmail.com']) {
      statuses.push((await call('/contacts/email-verifier', { email }, key)).body.status);
    }
    expect(statuses).toEqual(['invalid', 'invalid', 'disposable', 'webmail']);
    const company = (await call('/contacts/email-verifier', { email: 'ada@example.com' }, key)).body;
    expect(['valid', 'accept_all']).toContain(company.status);
  });

  it('answers 400 in the legacy envelope naming the field, for missing and invalid inputs', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const missing = await call('/maps/search', { location: 'Lisbon' }, key);
    expect(missing.res.status).toBe(400);
    expect(missing.body).toEqual({
      error: '`query` is required.',
      status: 400,
      code: 'missing_required_parameter',
    });
    const range = await call('/maps/search', { query: 'tea', limit: 0 }, key);
    expect(range.body).toMatchObject({
      status: 400,
      code: 'invalid_parameter_value',
      error: expect.stringContaining('`limit`'),
    });
    const either = await call('/forum', { limit: 2 }, key);
    expect(either.body).toMatchObject({
      status: 400,
      error: expect.stringContaining('give `url` or `community`'),
    });
    const notObject = await call('/maps/search', [1, 2], key);
    expect(notObject.body).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(sandbox().state.spent(key)).toBe(0);
  });

  it('serves microblog profiles and searches through sub-resources', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const user = await fetch(`${sandbox().url}/api/v1/data/microblog/users/esa`, {
      headers: { 'x-api-key': key },
    });
    expect((await user.json()).user).toMatchObject({ username: 'esa', followers: expect.any(Number) });
    const search = await fetch(`${sandbox().url}/api/v1/data/microblog/search?query=comet&limit=5`, {
      headers: { 'x-api-key': key },
    });
    const found = await search.json();
    expect(found.posts).toHaveLength(5);
    expect(found.posts[0].text).toMatch(/^comet: /);
    expect(sandbox().state.spent(key)).toBeCloseTo(0.0012 * 2, 9);
  });
});
