import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';

/** eval_run under rate limits, low balance, cancellation; content storage; dataset versions; output items. */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: { toolsets: 'evals' },
    sandbox: { timing: { evalQueueMs: 20, evalStepMs: 10, pollHintMs: 30 } },
  });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.sandbox.clearRequests();
  h.sandbox.faults.clear();
});

const EXPERIMENTS = '/api/v1/evals/experiments';
const rows = [
  { input: 'Capital of Italy?', expected_output: 'Rome' },
  { input: 'Two plus two?', expected_output: '4' },
];
const mini = [{ model: 'openai/gpt-sandbox-mini' }];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('eval_run and the platform saying wait, no or stop', () => {
  it('waits out a 429 on the experiment create for as long as Retry-After says, and creates it once', async () => {
    h.sandbox.faults.add({
      match: { method: 'POST', path: EXPERIMENTS },
      status: 429,
      code: 'rate_limit_exceeded',
      headers: { 'retry-after-ms': '250' },
    });
    const result = await h.call('eval_run', { rows, candidates: mini, scorers: ['contains'] });
    expect(result.isError, textOf(result)).toBeFalsy();
    const creates = h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === EXPERIMENTS);
    expect(creates.map((r) => r.status)).toEqual([429, 201]);
    expect(creates[1]!.at - creates[0]!.at).toBeGreaterThanOrEqual(240);
    expect(out(result).status).toBe('completed');
  });

  it('waits out a 429 on a status poll as Retry-After says, then finishes', async () => {
    h.sandbox.faults.add({
      match: { method: 'GET', path: `${EXPERIMENTS}/*` },
      status: 429,
      headers: { 'retry-after-ms': '300' },
    });
    const result = await h.call('eval_run', { rows, candidates: mini });
    expect(result.isError, textOf(result)).toBeFalsy();
    const polls = h.sandbox.requests.filter(
      (r) => r.method === 'GET' && r.path.startsWith(`${EXPERIMENTS}/`),
    );
    expect(polls[0]!.status).toBe(429);
    expect(polls[1]!.at - polls[0]!.at).toBeGreaterThanOrEqual(290);
    expect(out(result)).toMatchObject({ status: 'completed', progress: 'traces 2/2, scores 0/0' });
  });

  it('gives up on a create that stays rate limited, saying when to call again', async () => {
    h.sandbox.faults.add({
      match: { method: 'POST', path: EXPERIMENTS },
      status: 429,
      times: 2,
      code: 'rate_limit_exceeded',
      headers: { 'retry-after-ms': '40' },
    });
    const result = await h.call('eval_run', { rows, candidates: mini });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Error \(rate_limited, HTTP 429\)[\s\S]*Retry after: 1 s/);
  });

  it('reports the balance a run needs when the key cannot pay for it (402), before anything runs', async () => {
    const poor = await startHarness({
      sharedSandbox: h.sandbox,
      credentials: [{ kind: 'api_key', value: h.sandbox.state.createKey({ balance: 0 }), source: 'env' }],
      config: { toolsets: 'evals' },
    });
    try {
      const result = await poor.call('eval_run', { rows, candidates: mini, scorers: ['exact_match'] });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /Error \(insufficient_balance, HTTP 402\)[\s\S]*requiredBalance: 0\.\d+/,
      );
      expect(h.sandbox.requests.filter((r) => r.path.startsWith(EXPERIMENTS)).map((r) => r.status)).toEqual([
        402,
      ]);
    } finally {
      await poor.close();
    }
  });

  it('stops polling at once when the caller cancels', async () => {
    const slow = await startHarness({
      config: { toolsets: 'evals' },
      sandbox: { timing: { evalQueueMs: 0, evalStepMs: 400, pollHintMs: 40 } },
    });
    try {
      const controller = new AbortController();
      const call = slow.call(
        'eval_run',
        { rows, candidates: mini, scorers: ['contains'] },
        {
          signal: controller.signal,
          onprogress: (p) => {
            if (p.message?.startsWith('traces')) controller.abort();
          },
        },
      );
      await expect(call).rejects.toThrow();
      const polls = () => slow.sandbox.requests.filter((r) => r.method === 'GET').length;
      await sleep(100);
      const seen = polls();
      expect(seen).toBeGreaterThan(0);
      await sleep(300);
      expect(polls()).toBe(seen);
    } finally {
      await slow.close();
    }
  });
});

describe('eval_run content storage', () => {
  it('passes store_content and redaction on, and shows why content was not stored', async () => {
    const result = await h.call('eval_run', {
      rows,
      candidates: mini,
      scorers: ['exact_match'],
      settings: { store_content: true, redaction: true },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const create = h.sandbox.requests.find((r) => r.method === 'POST' && r.path === EXPERIMENTS)!;
    expect(create.json).toMatchObject({ settings: { store_content: true, redaction: true } });
    expect(out(result).content_suppressed_reason).toBe('pii_redaction_enabled');
    expect(textOf(result)).toContain('Content not stored: pii_redaction_enabled');
    expect(out(result).worst.every((w: string) => !w.includes('| output:'))).toBe(true);
  });

  it('shows the stored answers in the worst items when content is kept', async () => {
    const result = await h.call('eval_run', {
      rows,
      candidates: mini,
      scorers: ['exact_match'],
      settings: { store_content: true },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).content_suppressed_reason).toBeUndefined();
    expect(out(result).worst[0]).toContain('| output: "Sandbox reply to: \\"Capital of Italy?\\".');
    const create = h.sandbox.requests.find((r) => r.method === 'POST' && r.path === EXPERIMENTS)!;
    expect(create.json).toMatchObject({ settings: { store_content: true } });
  });

  it('takes the project defaults when it says nothing about content', async () => {
    const project = out(
      await h.call('evals_write', {
        operation: 'projects.create',
        name: 'Kept',
        settings: { store_content: true },
      }),
    ).data;
    h.sandbox.clearRequests();
    const result = await h.call('eval_run', { rows, candidates: mini, project_id: project.id });
    expect(result.isError, textOf(result)).toBeFalsy();
    const create = h.sandbox.requests.find((r) => r.method === 'POST' && r.path === EXPERIMENTS)!;
    expect(create.json).toMatchObject({ project_id: project.id });
    expect((create.json as Record<string, unknown>).settings).toBeUndefined();
    const read = out(
      await h.call('evals_read', { operation: 'experiments.get', id: out(result).experiment_id }),
    );
    expect(read.data.experiment).toMatchObject({ project_id: project.id, settings: { store_content: true } });
  });
});

describe('eval_run on a dataset version, and its output items', () => {
  it('runs a frozen dataset version and pages through the output items, 20 at a time', async () => {
    const quiz = Array.from({ length: 11 }, (_, i) => ({
      input: `Question ${i + 1}?`,
      expected_output: `${i + 1}`,
    }));
    const dataset = out(
      await h.call('evals_write', { operation: 'datasets.create', name: 'Quiz', rows: quiz }),
    ).data;
    const version = out(await h.call('evals_write', { operation: 'datasets.freeze', id: dataset.id })).data;
    h.sandbox.clearRequests();
    const result = await h.call('eval_run', {
      dataset_version_id: version.id,
      candidates: [...mini, { model: 'anthropic/claude-sandbox' }],
      scorers: ['contains'],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o.table.map((t: { count: number }) => t.count)).toEqual([11, 11]);
    const create = h.sandbox.requests.find((r) => r.method === 'POST' && r.path === EXPERIMENTS)!;
    expect(create.json).toMatchObject({ dataset_version_id: version.id, scorer_ids: ['contains'] });
    expect((create.json as Record<string, unknown>).items).toBeUndefined();

    h.sandbox.clearRequests();
    const first = out(
      await h.call('evals_read', { operation: 'experiments.output_items', id: o.experiment_id }),
    ).data;
    expect(first.data).toHaveLength(20);
    expect(first.has_more).toBe(true);
    // The route lists no `limit` (issue 32): the list is read whole, 20 shown at a time.
    expect(h.sandbox.requests[0]).toMatchObject({
      method: 'GET',
      path: `${EXPERIMENTS}/${o.experiment_id}/output_items`,
      query: {},
    });
    const rest = out(
      await h.call('evals_read', {
        operation: 'experiments.output_items',
        id: o.experiment_id,
        after: first.last_id,
      }),
    ).data;
    expect(
      rest.data.map((i: { item_index: number; candidate_id: string }) => [i.item_index, i.candidate_id]),
    ).toEqual([
      [10, 'c1'],
      [10, 'c2'],
    ]);
    expect(rest.has_more).toBe(false);
    expect(h.sandbox.requests[1]!.query).toEqual({});
  });

  it('refuses an unknown argument and an experiment id missing or unknown', async () => {
    const bad = await h.call('evals_read', {
      operation: 'experiments.output_items',
      id: 'evalexp_1',
      limit: 5,
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/Unknown argument `limit`/);
    expect(h.sandbox.requests).toHaveLength(0);
    const missing = await h.call('evals_read', { operation: 'experiments.get', id: 'evalexp_999999' });
    expect(textOf(missing)).toMatch(/Error \(not_found, HTTP 404\)/);
    const noId = await h.call('evals_read', { operation: 'experiments.get' });
    expect(textOf(noId)).toMatch(/`id` is required for experiments.get[\s\S]*eval_run returns it/);
  });

  it('passes a dataset version the platform does not know on as its 404, naming the parameter', async () => {
    const result = await h.call('eval_run', { dataset_version_id: 'evaldsver_nope', candidates: mini });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Error \(not_found, HTTP 404\)[\s\S]*parameter dataset_version_id/);
  });
});
