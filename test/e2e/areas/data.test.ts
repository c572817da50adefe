import { readFile } from 'node:fs/promises';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_KEY } from '../../../src/sandbox/constants.js';
import { DATA_ENDPOINTS } from '../../../src/sandbox/data/catalog.js';
import { type Harness, out, resourceText, startHarness, textOf } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ sandbox: { timing: { crawlPageMs: 40 } } });
});
afterAll(async () => {
  await h.close();
});

/** The requests one tool call made, from the sandbox's log. */
async function seen(call: () => Promise<unknown>) {
  h.sandbox.clearRequests();
  await call();
  return [...h.sandbox.requests];
}

/** A path-like form of each id, which the platform normalizes too (spec 1 §4.5). */
const aliasOf = (id: string, path: string): string =>
  ({
    'web.search': 'search',
    'url.scrape': 'urls.scrape',
    'maps.search': 'maps_search',
    'maps.reviews': 'maps.review',
  })[id] ?? `api/v1/data${path}`;

describe('data_endpoints', () => {
  it('lists one line per endpoint and fetches the catalog once while Cache-Control allows', async () => {
    const requests = await seen(async () => {
      const all = await h.call('data_endpoints');
      expect(all.isError).toBeFalsy();
      expect(out(all).endpoints).toHaveLength(20);
      expect(out(all).endpoints).toContain(
        'web.search [POST] search: Usage-based: 0.006 USD per standard search, 0.06 USD per deep search.',
      );
      const maps = await h.call('data_endpoints', { filter: 'maps' });
      expect(out(maps).endpoints.map((line: string) => line.split(' ')[0])).toEqual([
        'maps.search',
        'maps.reviews',
      ]);
      const text = await h.call('data_endpoints', { filter: 'email' });
      expect(textOf(text)).toContain('contacts.email_finder [GET,POST] business');
    });
    expect(requests.filter((r) => r.path === '/api/v1/data/endpoints')).toHaveLength(1);
  });

  it('says so when nothing matches', async () => {
    const none = await h.call('data_endpoints', { filter: 'no such thing' });
    expect(out(none).endpoints).toEqual([]);
    expect(textOf(none)).toMatch(/No data endpoint matches/);
  });

  it('serves the catalog as the orbit://data/endpoints resource', async () => {
    const listed = await h.client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain('orbit://data/endpoints');
    const read = await h.client.readResource({ uri: 'orbit://data/endpoints' });
    const body = JSON.parse(resourceText(read.contents[0]));
    expect(body.endpoints).toHaveLength(20);
    expect(body.meta.count).toBe(20);
    expect(body.endpoints[0]).toMatchObject({ id: 'web.search', endpoint: '/api/v1/data/web/search' });
  });

  it('fails with isError naming the field when the catalog breaks the spec (and does not keep it)', async () => {
    const fresh = await startHarness();
    try {
      fresh.sandbox.faults.add({
        match: { method: 'GET', path: '/api/v1/data/endpoints' },
        status: 200,
        body: { object: 'list', data: [{ id: 'web.search', methods: ['POST'] }] },
      });
      const result = await fresh.call('data_endpoints');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/upstream_invalid\)[\s\S]*`data\.0\.category`/);
      expect(out(await fresh.call('data_endpoints')).endpoints).toHaveLength(20);
    } finally {
      await fresh.close();
    }
  });
});

describe('data_call, every catalog entry', () => {
  for (const entry of DATA_ENDPOINTS) {
    it(`calls ${entry.id} by id and by an alias, path-style, with the input as the body`, async () => {
      const path = `/api/v1/data${entry.path}`;
      for (const endpoint of [entry.id, aliasOf(entry.id, entry.path)]) {
        let result: Awaited<ReturnType<Harness['call']>> | undefined;
        const requests = await seen(async () => {
          result = await h.call('data_call', { endpoint, input: entry.example });
        });
        expect(result?.isError, textOf(result!)).toBeFalsy();
        const wrapper = requests.find((r) => r.path === path);
        expect(wrapper).toMatchObject({ method: 'POST', json: entry.example });
        expect(wrapper?.headers.authorization).toBe(`Bearer ${SANDBOX_DEMO_KEY}`);
        expect(wrapper?.headers['content-type']).toBe('application/json');
        // The wrapper forwarded it to the direct route, whose id and path came back as headers.
        expect(requests.some((r) => r.path === entry.direct)).toBe(true);
        const r = out(result!);
        expect(r).toMatchObject({ endpoint: entry.id, direct_endpoint: entry.direct });
        expect(r.request_id).toMatch(/^req_/);
        expect(typeof r.cost).toBe('number');
        expect(r.data).toBeTypeOf('object');
      }
    });
  }
});

describe('data_call', () => {
  it('returns the platform body, its cost and a capped text form', async () => {
    const result = await h.call('data_call', {
      endpoint: 'url.scrape',
      input: { urls: ['https://example.com/blog/launch-notes', 'https://bad.invalid/x'] },
    });
    const r = out(result);
    expect(r.data.summary).toMatchObject({ requested: 2, successful: 1, failed: 1 });
    expect(r.cost).toBe(0.002);
    expect(textOf(result)).toMatch(
      /^<untrusted-web-content>\nurl\.scrape \(cost 0\.002 USD\) \[req_\d+\]\n\{/,
    );
  });

  it('sends GET with the input as query parameters on an endpoint that allows it', async () => {
    const requests = await seen(async () => {
      const result = await h.call('data_call', {
        endpoint: 'maps.search',
        method: 'GET',
        input: { query: 'coffee', location: 'Lisbon', limit: 2 },
      });
      expect(out(result).data.places).toHaveLength(2);
    });
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: '/api/v1/data/maps/search',
      query: { query: 'coffee', location: 'Lisbon', limit: '2' },
    });
  });

  it('refuses a GET on a POST-only endpoint before sending', async () => {
    const requests = await seen(async () => {
      const result = await h.call('data_call', { endpoint: 'crawler', method: 'GET', input: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /crawler accepts POST only, not GET[\s\S]*Fix: Call it with method POST/,
      );
    });
    expect(requests.filter((r) => r.path.startsWith('/api/v1/data/crawler'))).toEqual([]);
  });

  it('refuses nested input on a GET, and input that is not an object, before sending', async () => {
    const nested = await h.call('data_call', {
      endpoint: 'maps.search',
      method: 'GET',
      input: { query: 'x', near: { lat: 1 } },
    });
    expect(textOf(nested)).toMatch(/input\.near cannot travel in a GET query/);
    const requests = await seen(async () => {
      const notObject = await h.call('data_call', { endpoint: 'web.search', input: 'orbital debris' });
      expect(notObject.isError).toBe(true);
      expect(textOf(notObject)).toMatch(/`input` must be a JSON object of web\.search's fields, not string/);
      const list = await h.call('data_call', { endpoint: 'web.search', input: ['a'] });
      expect(textOf(list)).toMatch(/not an array/);
    });
    expect(requests.filter((r) => r.path.startsWith('/api/v1/data/web'))).toEqual([]);
  });

  it('refuses an unknown id before sending, naming the closest ids', async () => {
    const requests = await seen(async () => {
      const result = await h.call('data_call', { endpoint: 'maps.serch', input: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Unknown data endpoint "maps\.serch"\. Closest: maps\.search, /);
    });
    expect(requests.filter((r) => r.path !== '/api/v1/data/endpoints')).toEqual([]);
  });

  it('describes a POST-only endpoint from its public metadata, without calling it', async () => {
    const requests = await seen(async () => {
      const result = await h.call('data_call', { endpoint: 'crawler', describe: true });
      const r = out(result);
      expect(r.data.input.example).toEqual({ url: 'https://docs.example.com', maxPages: 5 });
      expect(r.summary).toMatch(/Fields: url \(required\) string: Start URL/);
      expect(r.summary).toMatch(/Example input: \{"url":"https:\/\/docs\.example\.com","maxPages":5\}/);
    });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/data/crawler']);
  });

  it('describes an endpoint that takes GET from its catalog entry, since a GET would run it', async () => {
    const requests = await seen(async () => {
      const result = await h.call('data_call', { endpoint: 'contacts.email_count', describe: true });
      expect(out(result).summary).toMatch(/contacts\.email_count \(GET, POST\): How many email addresses/);
    });
    expect(requests.filter((r) => r.path.startsWith('/api/v1/data/contacts'))).toEqual([]);
  });

  it('answers an input the endpoint rejects with the platform message and how to call it', async () => {
    const result = await h.call('data_call', { endpoint: 'crawler', input: { maxPages: 3 } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/bad_request, HTTP 400\): `url` is required/);
    expect(text).toMatch(/Platform code: missing_required_parameter/);
    expect(text).toMatch(/Fix: Fix the input\. crawler \(POST\): .*Fields: url \(required\)/);
  });

  it('reports progress while a crawl streams in, page by page', async () => {
    const seenProgress: Progress[] = [];
    const result = await h.call(
      'data_call',
      { endpoint: 'crawler', input: { url: 'https://docs.example.com', maxPages: 6 } },
      { onprogress: (p) => seenProgress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    expect(out(result).data.pages).toHaveLength(6);
    const received = seenProgress.filter((p) => /^crawler: \d+ KB of \d+ KB received$/.test(p.message ?? ''));
    expect(received.length).toBeGreaterThan(2);
    const values = seenProgress.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(out(result).cost).toBeCloseTo(6 * 0.0012, 9);
  });

  it('saves a reply above the structured cap to a file, linked, with a capped text form', async () => {
    const result = await h.call('data_call', {
      endpoint: 'crawler',
      input: { url: 'https://docs.example.com', maxPages: 50, maxDepth: 3 },
    });
    const r = out(result);
    expect(r.data).toBeUndefined();
    expect(r.file).toMatch(/^orbit:\/\/media\/[a-f0-9]{32}$/);
    expect(r.summary).toMatch(/reply saved to .*\.json; it begins: \{"url":"https:\/\/docs\.example\.com"/);
    expect(textOf(result).length).toBeLessThan(4_500);
    const link = result.content.find((c) => c.type === 'resource_link');
    expect(link).toMatchObject({ uri: r.file, mimeType: 'application/json' });
    const path = /saved to (\S+\.json);/.exec(r.summary)?.[1];
    const saved = JSON.parse(await readFile(path!, 'utf8'));
    expect(saved.pages.length).toBeGreaterThan(10);
  });
});

describe('data_call, the data wrapper errors of spec 1 §7.2', () => {
  const cases = [
    { status: 400, code: 'invalid_json', fix: /pass `input` as a JSON object/ },
    { status: 400, code: 'invalid_body', fix: /Pass `input` as a JSON object of the endpoint fields/ },
    { status: 400, code: 'missing_endpoint', fix: /Name the endpoint in `endpoint`/ },
    { status: 404, code: 'unknown_endpoint', fix: /Use an id from data_endpoints/ },
    { status: 405, code: 'method_not_allowed', fix: /Call web\.search with POST/ },
  ];
  for (const { status, code, fix } of cases) {
    it(`turns ${status} ${code} into a clear isError result`, async () => {
      h.sandbox.faults.add({
        match: { method: 'POST', path: '/api/v1/data/web/search' },
        status,
        code,
        message: `Sandbox ${code}.`,
      });
      const result = await h.call('data_call', { endpoint: 'web.search', input: { query: 'x' } });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain(`HTTP ${status}): Sandbox ${code}.`);
      expect(text).toContain(`Platform code: ${code}`);
      expect(text).toMatch(fix);
      expect(text).toMatch(/Request id: req_/);
    });
  }

  it('turns 500 unsupported_data_endpoint into a clear isError result, sent once', async () => {
    await fetch(`${h.sandbox.url}/__sandbox/data/unsupported`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: 'forum.scrape' }),
    });
    try {
      const requests = await seen(async () => {
        const result = await h.call('data_call', { endpoint: 'forum.scrape', input: { community: 'space' } });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/server_error, HTTP 500\)[\s\S]*unsupported_data_endpoint/);
        expect(textOf(result)).toMatch(/cannot dispatch forum\.scrape right now/);
      });
      // A failed paid POST is never retried.
      expect(requests.filter((r) => r.path === '/api/v1/data/forum')).toHaveLength(1);
    } finally {
      await fetch(`${h.sandbox.url}/__sandbox/data/unsupported`, { method: 'DELETE' });
    }
  });
});
