import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, Sandbox } from '../../src/sandbox/index.js';
import { DEMO_AUTH, post, useSandbox } from './helpers.js';

/** The request the data API forwarded for the last call: the recorded request after the wrapper's. */
function forwarded(sb: Sandbox, wrapperPath: string): RecordedRequest {
  const at = sb.requests.map((r) => r.path).lastIndexOf(wrapperPath);
  const next = sb.requests[at + 1];
  if (at < 0 || !next) throw new Error(`no forward recorded after ${wrapperPath}`);
  return next;
}

/** A raw HTTP/1.1 request, so hop-by-hop headers that fetch refuses to send can be sent. */
function rawPost(sb: Sandbox, path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(`${sb.url}${path}`, { method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

describe('sandbox data API dispatch and forwarding', () => {
  const sandbox = useSandbox();
  const json = async (res: Response) => ({ res, body: await res.json() });

  it('forwards a path-style POST to the direct route with the body byte for byte and the query kept', async () => {
    const text = '{ "domain": "example.com",  "limit": 2 }';
    const { res, body } = await json(
      await post(sandbox(), '/api/v1/data/contacts/domain-search?trace=abc&x=1', text, {
        ...DEMO_AUTH,
        'content-type': 'text/plain',
        'x-title': 'dispatch test',
      }),
    );
    expect(res.status).toBe(200);
    expect(body.domain).toBe('example.com');
    const seen = forwarded(sandbox(), '/api/v1/data/contacts/domain-search');
    expect(seen).toMatchObject({
      method: 'POST',
      path: '/api/contacts/domain-search',
      query: { trace: 'abc', x: '1' },
      body: text,
      headers: { 'content-type': 'application/json', 'x-title': 'dispatch test', ...DEMO_AUTH },
    });
    expect(res.headers.get('x-orbit-data-endpoint')).toBe('contacts.domain_search');
    expect(res.headers.get('x-orbit-direct-endpoint')).toBe('/api/contacts/domain-search');
    expect(res.headers.get('access-control-expose-headers')).toBe(
      'x-orbit-data-endpoint, x-orbit-direct-endpoint',
    );
    expect(res.headers.get('x-request-id')).toBe(sandbox().requests.at(-2)?.id);
  });

  it('drops the hop-by-hop headers connection, content-length, host, keep-alive, transfer-encoding, upgrade', async () => {
    const res = await rawPost(
      sandbox(),
      '/api/v1/data/contacts/email-count',
      {
        ...DEMO_AUTH,
        'content-type': 'application/json',
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        upgrade: 'sandbox-protocol',
        'x-kept': 'yes',
      },
      '{"domain":"example.com"}',
    );
    expect(res.status).toBe(200);
    const seen = forwarded(sandbox(), '/api/v1/data/contacts/email-count');
    const wrapper = sandbox().requests[sandbox().requests.indexOf(seen) - 1]!;
    expect(wrapper.headers).toMatchObject({
      host: expect.any(String),
      'keep-alive': 'timeout=5',
      upgrade: 'sandbox-protocol',
    });
    for (const name of [
      'connection',
      'content-length',
      'host',
      'keep-alive',
      'transfer-encoding',
      'upgrade',
    ]) {
      expect(seen.headers[name], name).toBeUndefined();
    }
    expect(seen.headers['x-kept']).toBe('yes');
    expect(seen.json).toEqual({ domain: 'example.com' });
  });

  it('forwards `{}` for a path-style POST with an empty body, and the direct route answers it', async () => {
    const res = await fetch(`${sandbox().url}/api/v1/data/contacts/email-count`, {
      method: 'POST',
      headers: DEMO_AUTH,
    });
    const seen = forwarded(sandbox(), '/api/v1/data/contacts/email-count');
    expect(seen.body).toBe('{}');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: expect.stringContaining('`domain` is required'),
      status: 400,
      code: 'missing_required_parameter',
    });
    expect(res.headers.get('x-orbit-data-endpoint')).toBe('contacts.email_count');
  });

  it('forwards a GET with its query to an endpoint that allows GET', async () => {
    const res = await fetch(`${sandbox().url}/api/v1/data/maps/search?query=tea&limit=2`, {
      headers: DEMO_AUTH,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).places).toHaveLength(2);
    const seen = forwarded(sandbox(), '/api/v1/data/maps/search');
    expect(seen).toMatchObject({
      method: 'GET',
      path: '/api/maps/search',
      query: { query: 'tea', limit: '2' },
      body: '',
    });
  });

  it('forwards sub-resources of microblog.read below its direct path', async () => {
    const res = await fetch(`${sandbox().url}/api/v1/data/microblog/users/esa/posts?limit=3`, {
      headers: DEMO_AUTH,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ username: 'esa', posts: expect.any(Array) });
    expect(body.posts).toHaveLength(3);
    expect(res.headers.get('x-orbit-direct-endpoint')).toBe('/api/microblog/users/esa/posts');
    const unknown = await fetch(`${sandbox().url}/api/v1/data/microblog/lists/1`, { headers: DEMO_AUTH });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatch(/users\/<name>/);
  });

  it('takes body-style input from `input`, else `data`, else the other fields, and keeps the query', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ endpoint: 'contacts.email_count', input: { domain: 'a.com' }, domain: 'ignored.com' }, 'a.com'],
      [{ id: 'contacts.email_count', data: { domain: 'b.com' } }, 'b.com'],
      [{ type: 'contacts.email_count', domain: 'c.com' }, 'c.com'],
    ];
    for (const [request, domain] of cases) {
      const { res, body } = await json(await post(sandbox(), '/api/v1/data?src=body', request));
      expect(res.status).toBe(200);
      expect(body.domain).toBe(domain);
      const seen = forwarded(sandbox(), '/api/v1/data');
      expect(seen).toMatchObject({
        path: '/api/contacts/email-count',
        query: { src: 'body' },
        json: { domain },
      });
      expect(res.headers.get('x-orbit-data-endpoint')).toBe('contacts.email_count');
    }
  });

  it('normalizes ids: data paths, path-like ids, slashes to dots, hyphens to underscores, any case', async () => {
    const spellings = [
      'contacts.email_count',
      'contacts/email-count',
      'contacts.email-count',
      'api/v1/data/contacts/email-count',
      '/api/v1/data/contacts/email-count',
      'CONTACTS.EMAIL_COUNT',
    ];
    for (const endpoint of spellings) {
      const res = await post(sandbox(), '/api/v1/data', { endpoint, input: { domain: 'example.com' } });
      expect(res.status, endpoint).toBe(200);
      expect(res.headers.get('x-orbit-data-endpoint'), endpoint).toBe('contacts.email_count');
    }
    const person = await post(sandbox(), '/api/v1/data', {
      endpoint: 'contacts/people/find',
      input: { email: 'ada@example.com' },
    });
    expect(person.headers.get('x-orbit-data-endpoint')).toBe('contacts.person_enrichment');
  });

  it('resolves the aliases of spec 1 §4.5', async () => {
    const aliases: [string, string, Record<string, unknown>][] = [
      ['search', 'web.search', { query: 'alias' }],
      ['web', 'web.search', { query: 'alias' }],
      ['scrape', 'url.scrape', { urls: ['https://example.com'] }],
      ['urls.scrape', 'url.scrape', { urls: ['https://example.com'] }],
      ['url_scrape', 'url.scrape', { urls: ['https://example.com'] }],
      ['url-scrape', 'url.scrape', { urls: ['https://example.com'] }],
      ['maps_search', 'maps.search', { query: 'tea' }],
      ['maps-search', 'maps.search', { query: 'tea' }],
      ['maps/search', 'maps.search', { query: 'tea' }],
      ['maps_reviews', 'maps.reviews', { placeId: 'place_1' }],
      ['maps-reviews', 'maps.reviews', { placeId: 'place_1' }],
    ];
    for (const [alias, id, input] of aliases) {
      const res = await post(sandbox(), '/api/v1/data', { endpoint: alias, input });
      expect(res.status, alias).toBe(200);
      expect(res.headers.get('x-orbit-data-endpoint'), alias).toBe(id);
    }
  });

  it('accepts ids as path-style data paths too', async () => {
    for (const path of ['/api/v1/data/contacts.email_count', '/api/v1/data/contacts/email_count']) {
      const res = await post(sandbox(), path, { domain: 'example.com' });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-orbit-data-endpoint')).toBe('contacts.email_count');
    }
  });

  it('leaves auth to the direct route: no credentials get its 401 missing_api_key', async () => {
    const { res, body } = await json(await post(sandbox(), '/api/v1/data/maps/search', { query: 'tea' }, {}));
    expect(res.status).toBe(401);
    expect(body).toEqual({ error: expect.any(String), status: 401, code: 'missing_api_key' });
    expect(res.headers.get('x-orbit-data-endpoint')).toBe('maps.search');
  });
});

describe('sandbox data API wrapper errors (spec 1 §7.2)', () => {
  const sandbox = useSandbox();
  const call = async (path: string, body: unknown, method = 'POST') => {
    const res = await fetch(`${sandbox().url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...DEMO_AUTH },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { res, body: await res.json() };
  };
  const expectError = (body: unknown, code: string, type: string) =>
    expect(body).toEqual({ error: { message: expect.any(String), type, code } });

  it('answers 400 invalid_json to a body that is not JSON, in both dispatch styles', async () => {
    for (const path of ['/api/v1/data', '/api/v1/data/web/search']) {
      const { res, body } = await call(path, '{"endpoint": ');
      expect(res.status, path).toBe(400);
      expectError(body, 'invalid_json', 'invalid_request_error');
    }
    const empty = await call('/api/v1/data', undefined);
    expect(empty.res.status).toBe(400);
    expectError(empty.body, 'invalid_json', 'invalid_request_error');
  });

  it('answers 400 invalid_body to a body-style body, input or data that is not an object', async () => {
    for (const bad of [
      [1, 2],
      '"web.search"',
      { endpoint: 'web.search', input: 'cats' },
      { endpoint: 'web', data: [1] },
    ]) {
      const { res, body } = await call('/api/v1/data', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expectError(body, 'invalid_body', 'invalid_request_error');
    }
    expect(sandbox().requests.some((r) => r.path === '/api/web')).toBe(false);
  });

  it('answers 400 missing_endpoint when no endpoint, id or type is named', async () => {
    const { res, body } = await call('/api/v1/data', { input: { query: 'x' } });
    expect(res.status).toBe(400);
    expectError(body, 'missing_endpoint', 'invalid_request_error');
    expect(body.error.message).toMatch(/`endpoint`/);
  });

  it('answers 404 unknown_endpoint naming the closest ids, in both styles', async () => {
    const byBody = await call('/api/v1/data', { endpoint: 'web.serch', input: {} });
    expect(byBody.res.status).toBe(404);
    expectError(byBody.body, 'unknown_endpoint', 'not_found_error');
    expect(byBody.body.error.message).toMatch(/Closest: web\.search/);
    const byPath = await call('/api/v1/data/maps/reveiws', {});
    expect(byPath.res.status).toBe(404);
    expectError(byPath.body, 'unknown_endpoint', 'not_found_error');
    expect(byPath.body.error.message).toMatch(/maps\.reviews/);
  });

  it('answers 405 method_not_allowed with Allow to methods a data path does not take', async () => {
    const cases: [string, string, string][] = [
      ['PUT', '/api/v1/data/web/search', 'POST'],
      ['DELETE', '/api/v1/data/maps/search', 'GET, POST'],
      ['DELETE', '/api/v1/data', 'GET, POST'],
      ['POST', '/api/v1/data/endpoints', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const { res, body } = await call(path, method === 'DELETE' ? undefined : {}, method);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expectError(body, 'method_not_allowed', 'invalid_request_error');
    }
  });

  it('answers 500 unsupported_data_endpoint for an endpoint the sandbox was told has no dispatcher', async () => {
    const set = await post(sandbox(), '/__sandbox/data/unsupported', { endpoint: 'maps.reviews' }, {});
    expect(await set.json()).toEqual({ unsupported: ['maps.reviews'] });
    const { res, body } = await call('/api/v1/data/maps/reviews', { placeId: 'place_1' });
    expect(res.status).toBe(500);
    expectError(body, 'unsupported_data_endpoint', 'server_error');
    const cleared = await fetch(`${sandbox().url}/__sandbox/data/unsupported`, { method: 'DELETE' });
    expect(await cleared.json()).toEqual({ cleared: 1 });
    expect((await call('/api/v1/data/maps/reviews', { placeId: 'place_1' })).res.status).toBe(200);
    const bad = await post(sandbox(), '/__sandbox/data/unsupported', { endpoint: 'nope' }, {});
    expect(bad.status).toBe(400);
  });
});
