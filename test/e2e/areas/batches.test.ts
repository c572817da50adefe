import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Out, out, startHarness, textOf } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const ids = (page: Out) => (page.batches as { id: string }[]).map((b) => b.id);
const listPaths = () => h.sandbox.requests.filter((r) => r.path === '/api/beta/batches');

describe('batches_list', () => {
  it('lists the newest batches first with the key, and a cursor to the older ones', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('batches_list', {});
    expect(result.isError).toBeFalsy();
    const page = out(result);
    expect(page.batches).toHaveLength(20);
    expect(page.batches[0]).toMatchObject({
      id: expect.stringMatching(/^batch_/),
      status: 'validating',
      created_at: expect.stringMatching(/Z$/),
      requests: { total: 5, completed: 0, failed: 0 },
    });
    expect(page.has_more).toBe(true);
    expect(page.older_cursor).toEqual(expect.any(String));
    expect(page.newer_cursor).toBeUndefined();
    expect(listPaths()[0]?.headers.authorization).toBe('Bearer sk-orbit-sandbox-demo');
    expect(textOf(result).split('\n')[0]).toMatch(/^batch_\d+ validating openai\/gpt-sandbox .*Z 0\/5 done$/);
  });

  it('walks every filtered batch exactly once, older then newer, every page keeping the filters', async () => {
    const all = out(await h.call('batches_list', { limit: 100 })).batches as {
      id: string;
      created_at: string;
    }[];
    expect(all.length).toBeGreaterThanOrEqual(60);
    const filters = {
      status: ['completed', 'failed', 'cancelled', 'expired'],
      created_after: all[55]!.created_at,
    };
    const expected = ids(out(await h.call('batches_list', { ...filters, limit: 100 })));
    expect(expected.length).toBeGreaterThan(15);

    h.sandbox.clearRequests();
    const older: string[] = [];
    let page = out(await h.call('batches_list', { ...filters, limit: 4 }));
    older.push(...ids(page));
    while (page.older_cursor) {
      page = out(await h.call('batches_list', { cursor: page.older_cursor }));
      older.push(...ids(page));
    }
    expect(older).toEqual(expected);

    // Back from the oldest page to the newest, by newer_cursor alone.
    const newer = ids(page);
    while (page.newer_cursor) {
      page = out(await h.call('batches_list', { cursor: page.newer_cursor }));
      newer.unshift(...ids(page));
    }
    expect(newer).toEqual(expected);
    expect(new Set(newer).size).toBe(newer.length);

    const sent = listPaths();
    expect(sent.length).toBeGreaterThan(8);
    for (const request of sent) {
      expect(request.query.created_after).toBe(filters.created_after);
      expect(request.query.status).toBeDefined();
      expect(request.query.limit).toBe('4');
    }
    expect(sent.some((r) => r.query.before)).toBe(true);
    expect(sent.some((r) => r.query.after)).toBe(true);
  });

  it('sends every timestamp form of §4.1 as given', async () => {
    const forms: (number | string)[] = [
      1_700_000_000,
      '1700000000',
      '2023-11-14T22:13:20Z',
      '2023-11-14T22:13:20.123Z',
      '2023-11-14t23:13:20+01:00',
      '2023-11-14 23:13:20+0100',
      '2023-11-14T23:13:20.5+01',
    ];
    for (const created_after of forms) {
      h.sandbox.clearRequests();
      const result = await h.call('batches_list', { created_after, limit: 1 });
      expect(result.isError, String(created_after)).toBeFalsy();
      expect(listPaths()[0]?.query.created_after).toBe(String(created_after));
    }
  });

  it('refuses bad filters before sending, naming the argument', async () => {
    h.sandbox.clearRequests();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ after: 'batch_1', before: 'batch_2' }, /`after` and `before` cannot be combined/],
      [{ created_after: 'yesterday' }, /`created_after` is not a valid timestamp/],
      [{ created_before: '2025-01-01T00:00:00' }, /`created_before` is not a valid timestamp/],
      [{ created_after: '2025-01-01T00:00:00.123456Z' }, /not a valid timestamp/],
      [{ created_after: '2025-02-30T00:00:00Z' }, /not a valid timestamp/],
      [{ created_after: 1.5 }, /not a valid timestamp/],
      [{ created_after: '2025-01-02T00:00:00Z', created_before: 1735689600 }, /must be earlier than/],
      [{ limit: 101 }, /limit/],
      [{ status: ['done'] }, /status/],
      [{ cursor: 'not-a-cursor' }, /`cursor` is not a cursor from batches_list/],
    ];
    for (const [args, message] of cases) {
      const result = await h.call('batches_list', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toMatch(/invalid_input/);
      expect(textOf(result)).toMatch(message);
    }
    const first = out(await h.call('batches_list', { status: ['completed'], limit: 2 }));
    const changed = await h.call('batches_list', { cursor: first.older_cursor, status: ['failed'] });
    expect(textOf(changed)).toMatch(/`status` differs from the filters this cursor was made with/);
    const withAfter = await h.call('batches_list', { cursor: first.older_cursor, after: 'batch_000001' });
    expect(textOf(withAfter)).toMatch(/cannot be combined with `after` or `before`/);
    expect(listPaths()).toHaveLength(1);
  });

  it('reports the platform refusing a cursor in the batch envelope', async () => {
    const result = await h.call('batches_list', { after: 'batch_999999' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/bad_request, HTTP 400\): Invalid cursor: no batch batch_999999/);
  });
});

describe('batches_get', () => {
  it("returns a completed batch's short results inline, each of them", async () => {
    const completed = out(await h.call('batches_list', { status: ['completed'], limit: 1 })).batches[0];
    h.sandbox.clearRequests();
    const result = await h.call('batches_get', { id: completed.id });
    expect(result.isError).toBeFalsy();
    const got = out(result);
    expect(got.batch).toMatchObject({ id: completed.id, status: 'completed' });
    expect(got.results).toBe(got.batch.requests.completed + got.batch.requests.failed);
    // Sixteen short answers fit in a result: no file (decided by size, issue 32).
    expect(got.results_file).toBeUndefined();
    expect(got.preview).toHaveLength(got.results);
    expect(got.preview[0]).toEqual({
      id: 'request-1',
      ok: true,
      text: `Sandbox answer 1 of ${completed.id}.`,
    });
    expect(got.preview.at(-1)).toMatchObject({ ok: false, text: expect.stringContaining('context') });
    expect(h.sandbox.requests[0]?.path).toBe(`/api/beta/batches/${completed.id}`);
    expect(result.content.some((c) => c.type === 'resource_link')).toBe(false);
  });

  it('saves long results to a file and previews the first few', async () => {
    const completed = out(await h.call('batches_list', { status: ['completed'], limit: 1 })).batches[0];
    h.sandbox.faults.add({
      match: { path: `/api/beta/batches/${completed.id}` },
      reshape: { set: { 'results.*.response.body.choices.0.message.content': 'long '.repeat(300) } },
    });
    const result = await h.call('batches_get', { id: completed.id });
    const got = out(result);
    expect(got.results_file.uri).toMatch(/^orbit:\/\/media\//);
    expect(existsSync(got.results_file.path)).toBe(true);
    expect(JSON.parse(readFileSync(got.results_file.path, 'utf8'))).toHaveLength(got.results);
    expect(got.preview).toHaveLength(3);
    expect(result.content.some((c) => c.type === 'resource_link')).toBe(true);
  });

  it('returns a running batch without results', async () => {
    const running = out(await h.call('batches_list', { status: ['in_progress'], limit: 1 })).batches[0];
    const got = out(await h.call('batches_get', { id: running.id }));
    expect(got.batch.status).toBe('in_progress');
    expect(got.results_file).toBeUndefined();
  });

  it('reports an unknown batch as not found', async () => {
    const result = await h.call('batches_get', { id: 'batch_999999' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not_found, HTTP 404/);
  });
});
