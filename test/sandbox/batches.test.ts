import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE, SANDBOX_MANAGEMENT_TOKENS as T } from '../../src/sandbox/accounts/fixtures.js';
import { BATCH_STATUSES } from '../../src/sandbox/batches/store.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { bearer, send } from './accounts-helpers.js';
import { useSandbox } from './helpers.js';

const NOW = Date.UTC(2025, 2, 12, 15, 30);
const NEWEST = NOW / 1000 - 600;
const demo = bearer(SANDBOX_PEOPLE.demo.apiKey);

interface Item {
  id: string;
  status: string;
  created_at: number;
}

async function list(sb: Sandbox, query: string, headers = demo) {
  return send(sb, 'GET', `/api/beta/batches${query ? `?${query}` : ''}`, { headers });
}

/** Walks every page one way, returning the ids in the order seen and the pages' sizes. */
async function walk(sb: Sandbox, filters: string, direction: 'after' | 'before', start?: string) {
  const ids: string[] = [];
  let cursor = start;
  for (let pages = 0; pages < 100; pages += 1) {
    const res = await list(sb, [filters, cursor ? `${direction}=${cursor}` : ''].filter(Boolean).join('&'));
    expect(res.status).toBe(200);
    const page: Item[] = res.body.data;
    ids.push(...(direction === 'after' ? page : [...page].reverse()).map((b) => b.id));
    if (!res.body.has_more) return ids;
    cursor = direction === 'after' ? res.body.last_id : res.body.first_id;
  }
  throw new Error('walk did not end');
}

describe('batch list (spec 1 §2.1, §4.1)', () => {
  const sandbox = useSandbox({ now: () => NOW });

  it('serves a page of 20, newest first, in the page envelope', async () => {
    const res = await list(sandbox(), '');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: true });
    const data: Item[] = res.body.data;
    expect(data).toHaveLength(20);
    expect(res.body.first_id).toBe(data[0]?.id);
    expect(res.body.last_id).toBe(data[19]?.id);
    expect(data[0]).toEqual({
      id: expect.stringMatching(/^batch_\d{6}$/),
      object: 'batch',
      endpoint: '/v1/chat/completions',
      model: 'openai/gpt-sandbox',
      completion_window: '24h',
      status: 'validating',
      created_at: NEWEST,
      finalized_at: null,
      request_counts: { total: 5, completed: 0, failed: 0 },
      usage: null,
      results: null,
      error: null,
    });
    for (let i = 1; i < data.length; i += 1) {
      expect(data[i - 1]!.created_at).toBeGreaterThanOrEqual(data[i]!.created_at);
    }
  });

  it('keeps results null in lists, completed batches included', async () => {
    const res = await list(sandbox(), 'status=completed&limit=100');
    expect(res.body.data.length).toBeGreaterThan(10);
    for (const batch of res.body.data) {
      expect(batch.results).toBeNull();
      expect(batch.finalized_at).toEqual(expect.any(Number));
    }
  });

  it('seeds at least 60 batches covering every status', async () => {
    const ids = await walk(sandbox(), 'limit=100', 'after');
    expect(ids.length).toBeGreaterThanOrEqual(60);
    const all = (await list(sandbox(), 'limit=100')).body.data as Item[];
    expect(new Set(all.map((b) => b.status))).toEqual(new Set(BATCH_STATUSES));
  });

  it('walks forward with after and back with before, each batch once, filters kept', async () => {
    const filters = `status=completed,failed&status=expired&created_after=${NEWEST - 40 * 86_400}&limit=4`;
    const expected = (
      (await list(sandbox(), 'status=completed,failed,expired&limit=100')).body.data as Item[]
    ).map((b) => b.id);
    const forward = await walk(sandbox(), filters, 'after');
    expect(forward).toEqual(expected);
    expect(new Set(forward).size).toBe(forward.length);

    // From the oldest page back to the newest: `before` pages stay newest first inside.
    const last = await list(sandbox(), `${filters.replace('limit=4', 'limit=3')}&after=${forward.at(-4)}`);
    expect(last.body.has_more).toBe(false);
    const backward = await walk(sandbox(), filters, 'before', forward.at(-1));
    expect([forward.at(-1), ...backward]).toEqual([...expected].reverse());
  });

  it('walks one by one across batches created in the same second', async () => {
    const forward = await walk(sandbox(), 'limit=1', 'after');
    const backward = await walk(sandbox(), 'limit=1', 'before', forward.at(-1));
    expect(forward).toHaveLength(64);
    expect([forward.at(-1), ...backward]).toEqual([...forward].reverse());
    const all = (await list(sandbox(), 'limit=100')).body.data as Item[];
    const seconds = all.map((b) => b.created_at);
    expect(new Set(seconds).size).toBeLessThan(seconds.length);
  });

  it('says has_more in the direction being paged', async () => {
    const first = await list(sandbox(), 'limit=5');
    const newer = await list(sandbox(), `limit=5&before=${first.body.data[2].id}`);
    expect(newer.body.data.map((b: Item) => b.id)).toEqual(
      first.body.data.slice(0, 2).map((b: Item) => b.id),
    );
    expect(newer.body.has_more).toBe(false);
    const none = await list(sandbox(), `before=${first.body.first_id}`);
    expect(none.body).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
  });

  it('filters by one or many statuses, repeated or comma-separated', async () => {
    const repeated = await list(sandbox(), 'status=in_progress&status=cancelling&limit=100');
    const comma = await list(sandbox(), 'status=in_progress,cancelling&limit=100');
    expect(repeated.body.data).toEqual(comma.body.data);
    expect(repeated.body.data).toHaveLength(6);
    expect(new Set(repeated.body.data.map((b: Item) => b.status))).toEqual(
      new Set(['in_progress', 'cancelling']),
    );
  });

  it('reads created_after / created_before in every format, with strict bounds', async () => {
    const all = (await list(sandbox(), 'limit=100')).body.data as Item[];
    const pivot = all[10]!.created_at;
    const instant = new Date(pivot * 1000).toISOString(); // ...T..:..:..000Z
    const forms = [
      String(pivot),
      instant,
      instant.replace('.000Z', 'Z'),
      instant.replace('.000Z', '.0Z').replace('T', 't').replace('Z', 'z'),
      new Date((pivot + 7200) * 1000).toISOString().replace('.000Z', '+02:00'),
      new Date((pivot - 5400) * 1000).toISOString().replace('.000Z', '-01:30'),
      instant.replace('T', ' '),
    ];
    for (const form of forms) {
      const after = await list(sandbox(), `limit=100&created_after=${encodeURIComponent(form)}`);
      expect(after.status, form).toBe(200);
      expect(
        after.body.data.map((b: Item) => b.id),
        form,
      ).toEqual(all.slice(0, 10).map((b) => b.id));
      const before = await list(sandbox(), `limit=100&created_before=${encodeURIComponent(form)}`);
      expect(
        before.body.data.map((b: Item) => b.id),
        form,
      ).toEqual(all.slice(11).map((b) => b.id));
    }
  });

  it('compares millisecond bounds exactly', async () => {
    const all = (await list(sandbox(), 'limit=100')).body.data as Item[];
    const pivot = all[10]!.created_at;
    const justBefore = new Date(pivot * 1000 - 1).toISOString();
    const res = await list(sandbox(), `limit=100&created_after=${justBefore}`);
    expect(res.body.data.map((b: Item) => b.id)).toEqual(all.slice(0, 11).map((b) => b.id));
  });

  it('answers 400 in the batch envelope for every invalid filter', async () => {
    const bad = [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'after=batch_000001&before=batch_000002',
      'after=batch_999999',
      'status=done',
      'status=',
      'created_after=2025-03-01',
      'created_after=2025-03-01T00:00:00',
      'created_after=2025-03-01T00:00:00.1234Z',
      'created_after=2025-02-30T00:00:00Z',
      'created_before=yesterday',
      `created_after=${NEWEST}&created_before=${NEWEST}`,
      // An unencoded `+` arrives as a space, so the offset is lost: the client must encode it.
      'created_after=2025-03-01T00:00:00+01:00',
    ];
    for (const query of bad) {
      const res = await list(sandbox(), query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toEqual({ error: 400, message: expect.any(String) });
    }
  });

  it('answers 401 in the batch envelope without a key or with a management token', async () => {
    const none = await list(sandbox(), '', {});
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: 401, message: expect.stringContaining('Missing API key') });
    const token = await list(sandbox(), '', bearer(T.all));
    expect(token.body).toEqual({ error: 401, message: expect.stringContaining('management token') });
  });

  it('lists only the caller account batches; another account cursor is invalid', async () => {
    const member = await list(sandbox(), 'limit=100', bearer(SANDBOX_PEOPLE.member.apiKey));
    expect(member.body.data).toHaveLength(5);
    const res = await list(sandbox(), `after=${member.body.data[0].id}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/cursor/i);
  });
});

describe('one batch (spec 1 §4.1)', () => {
  const sandbox = useSandbox({ now: () => NOW });

  it('returns a completed batch with its inline results', async () => {
    const [batch] = (await list(sandbox(), 'status=completed&limit=1')).body.data as Item[];
    const res = await send(sandbox(), 'GET', `/api/beta/batches/${batch!.id}`, { headers: demo });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: batch!.id, object: 'batch', status: 'completed' });
    const { completed, failed } = res.body.request_counts;
    expect(res.body.results).toHaveLength(completed + failed);
    expect(res.body.results[0]).toMatchObject({
      custom_id: 'request-1',
      response: { status_code: 200 },
      error: null,
    });
    expect(res.body.results.at(-1)).toMatchObject({
      response: null,
      error: { code: 'context_length_exceeded' },
    });
  });

  it('answers results in the endpoint format of the batch', async () => {
    const all = (await list(sandbox(), 'status=completed&limit=100')).body.data as (Item & {
      endpoint: string;
    })[];
    const responses = all.find((b) => b.endpoint === '/v1/responses')!;
    const res = await send(sandbox(), 'GET', `/api/beta/batches/${responses.id}`, { headers: demo });
    expect(res.body.results[0].response.body).toMatchObject({ object: 'response', status: 'completed' });
  });

  it('has no results before the batch completes', async () => {
    const [batch] = (await list(sandbox(), 'status=in_progress&limit=1')).body.data as Item[];
    const res = await send(sandbox(), 'GET', `/api/beta/batches/${batch!.id}`, { headers: demo });
    expect(res.body.results).toBeNull();
  });

  it('answers 404 for an unknown batch or one of another account', async () => {
    const member = await list(sandbox(), 'limit=1', bearer(SANDBOX_PEOPLE.member.apiKey));
    for (const id of ['batch_nope', member.body.first_id]) {
      const res = await send(sandbox(), 'GET', `/api/beta/batches/${id}`, { headers: demo });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 404, message: expect.any(String) });
    }
  });
});
