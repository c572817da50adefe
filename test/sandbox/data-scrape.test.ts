import { describe, expect, it } from 'vitest';
import { post, useSandbox } from './helpers.js';

type Result = {
  url: string;
  success: boolean;
  title?: string;
  markdown?: string;
  content?: string;
  error?: string;
};
type Page = { url: string; depth: number; title: string; markdown: string };

describe('sandbox url.scrape (GAPS rules)', () => {
  const sandbox = useSandbox();
  const scrape = async (input: unknown, key: string, path = '/api/v1/data/url/scrape') => {
    const res = await post(sandbox(), path, input, { 'x-api-key': key });
    return { res, body: await res.json() };
  };

  it('returns each page as markdown with a title, headings and links', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const { body } = await scrape({ urls: ['https://www.example.org/guides/getting-started'] }, key);
    const [page] = body.results as Result[];
    expect(page).toMatchObject({ url: 'https://www.example.org/guides/getting-started', success: true });
    expect(page?.title).toBe('Getting Started | Example');
    expect(page?.markdown).toMatch(/^# Getting Started \| Example\n\n/);
    expect(page?.markdown).toMatch(/\n## Key points\n\n- /);
    expect(page?.markdown).toMatch(/\[\w+\]\(https:\/\/www\.example\.org\/guides\/getting-started\/\w+\)/);
    expect(page?.content).not.toMatch(/[#[\]]/);
  });

  it('refuses non-http, odd ports, localhost, private, metadata and video-site URLs per item', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const urls = [
      'ftp://example.com/file',
      'https://example.com:8443/admin',
      'http://localhost/x',
      'http://10.0.0.7/x',
      'http://169.254.169.254/latest/meta-data',
      'https://www.youtube.com/watch?v=abc',
    ];
    const first = await scrape({ urls: [...urls.slice(0, 4), 'https://example.com/ok'] }, key);
    expect(first.res.status).toBe(200);
    expect((first.body.results as Result[]).map((r) => r.error ?? 'ok')).toEqual([
      'only http and https URLs can be scraped',
      'only the standard ports 80 and 443 can be scraped',
      'localhost and private network addresses cannot be scraped',
      'localhost and private network addresses cannot be scraped',
      'ok',
    ]);
    const { body } = await scrape({ urls: [...urls.slice(4), 'https://example.com/ok'] }, key);
    const results = body.results as Result[];
    expect(results.map((r) => [r.success, r.error])).toEqual([
      [false, 'cloud metadata hosts cannot be scraped'],
      [false, expect.stringMatching(/^video-site links cannot be scraped/)],
      [true, undefined],
    ]);
    expect(body.summary).toEqual({ requested: 3, processed: 1, successful: 1, failed: 2, totalCost: 0.002 });
    expect(sandbox().state.spent(key)).toBeCloseTo(0.004, 9);
    const all = await scrape({ urls: urls.slice(1) }, key);
    expect(all.res.status).toBe(400);
    expect(all.body).toMatchObject({
      status: 400,
      code: 'invalid_parameter_value',
      error: expect.stringContaining('private network'),
    });
  });

  it('charges only successfully scraped URLs; unreachable pages fail per item', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const { body } = await scrape(
      { urls: ['https://example.com/a', 'https://gone.invalid/', 'https://example.com/404'] },
      key,
    );
    expect((body.results as Result[]).map((r) => r.error ?? 'ok')).toEqual([
      'ok',
      'DNS lookup failed for gone.invalid',
      'HTTP 404 Not Found',
    ]);
    expect(body.summary).toEqual({ requested: 3, processed: 3, successful: 1, failed: 2, totalCost: 0.002 });
    expect(sandbox().state.spent(key)).toBeCloseTo(0.002, 9);
  });

  it('prices stealth mode higher per URL', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const urls = ['https://example.com/a', 'https://example.com/b'];
    expect((await scrape({ urls, stealth: true }, key)).body.summary.totalCost).toBe(0.012);
    expect((await scrape({ urls, mode: 'stealth' }, key)).body.summary.totalCost).toBe(0.012);
    expect(sandbox().state.spent(key)).toBeCloseTo(0.024, 9);
  });

  it('takes at most 5 URLs and at least one', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const six = Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`);
    const tooMany = await scrape({ urls: six }, key);
    expect(tooMany.res.status).toBe(400);
    expect(tooMany.body.error).toMatch(/at most 5 URLs/);
    expect((await scrape({ urls: [] }, key)).res.status).toBe(400);
    expect((await scrape({}, key)).body.code).toBe('missing_required_parameter');
  });

  it('serves the direct route /api/scrape-urls the same way, without data headers', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const input = { urls: ['https://example.com/a'] };
    const direct = await scrape(input, key, '/api/scrape-urls');
    expect(direct.res.headers.get('x-orbit-data-endpoint')).toBeNull();
    expect(direct.body).toEqual((await scrape(input, key)).body);
  });
});

describe('sandbox crawler', () => {
  const PAUSE_MS = 60;
  const sandbox = useSandbox({ timing: { crawlPageMs: PAUSE_MS } });
  const crawl = (input: unknown, key: string) =>
    post(sandbox(), '/api/v1/data/crawler', input, { 'x-api-key': key });

  it('streams the reply page by page, one pause apart, with a Content-Length to show progress', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const started = Date.now();
    const res = await crawl({ url: 'https://docs.example.com', maxPages: 4 }, key);
    expect(res.status).toBe(200);
    const total = Number(res.headers.get('content-length'));
    const arrivals: [number, number][] = [];
    const chunks: Uint8Array[] = [];
    for await (const chunk of res.body ?? []) {
      chunks.push(chunk);
      arrivals.push([Date.now() - started, chunk.byteLength]);
    }
    const bytes = Buffer.concat(chunks);
    expect(bytes.byteLength).toBe(total);
    expect(arrivals.length).toBeGreaterThanOrEqual(4);
    expect(arrivals.at(-1)![0] - arrivals[0]![0]).toBeGreaterThanOrEqual(3 * PAUSE_MS - 10);
    const body = JSON.parse(bytes.toString('utf8'));
    expect(body.pages).toHaveLength(4);
    expect(body.summary).toEqual({
      requested: 4,
      crawled: 4,
      failed: 0,
      credits: 4,
      creditUsd: 0.0012,
      totalCost: 0.0048,
    });
    expect(body.x_orbit_pricing).toMatchObject({ amount: 0.0048, credits: 4 });
    expect(sandbox().state.spent(key)).toBeCloseTo(0.0048, 9);
  });
});

describe('sandbox crawler paths', () => {
  const sandbox = useSandbox({ timing: { crawlPageMs: 0 } });
  const crawl = (input: unknown, key: string) =>
    post(sandbox(), '/api/v1/data/crawler', input, { 'x-api-key': key });

  it('crawls breadth-first on one host within maxDepth, honouring include and exclude paths', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const read = async (input: Record<string, unknown>) =>
      (await (await crawl(input, key)).json()).pages as Page[];
    const shallow = await read({ url: 'https://docs.example.com', maxPages: 20, maxDepth: 1 });
    expect(shallow.map((p) => p.depth)).toEqual([0, 1, 1, 1]);
    const deep = await read({ url: 'https://docs.example.com', maxPages: 50, maxDepth: 3 });
    expect(deep.every((p) => new URL(p.url).host === 'docs.example.com')).toBe(true);
    expect(Math.max(...deep.map((p) => p.depth))).toBe(3);
    expect(new Set(deep.map((p) => p.url)).size).toBe(deep.length);
    const first = new URL(shallow[1]!.url).pathname;
    const only = await read({ url: 'https://docs.example.com', maxPages: 50, includePaths: [`${first}*`] });
    expect(only.slice(1).every((p) => new URL(p.url).pathname.startsWith(first))).toBe(true);
    const without = await read({ url: 'https://docs.example.com', maxPages: 50, excludePaths: [first] });
    expect(without.some((p) => new URL(p.url).pathname.startsWith(first))).toBe(false);
  });

  it('refuses a start URL the scraping rules forbid, and answers 402 before streaming when short', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const local = await crawl({ url: 'http://127.0.0.1/admin' }, key);
    expect(local.status).toBe(400);
    expect((await local.json()).error).toMatch(/private network/);
    const poor = sandbox().state.createKey({ balance: 0.001 });
    const short = await crawl({ url: 'https://docs.example.com', maxPages: 5 }, poor);
    expect(short.status).toBe(402);
    expect(await short.json()).toEqual({
      error: 'Insufficient balance',
      requiredBalance: 0.006,
      status: 402,
    });
  });
});
