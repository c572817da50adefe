import { describe, expect, it } from 'vitest';
import { chatAnswer, commonError, type EvalClient, evalClient, type Reply } from './evals-helpers.js';
import { useSandbox } from './helpers.js';

let now = Date.UTC(2026, 2, 3, 10, 0, 0);
const QUEUE = 1_000;
const STEP = 100;
const sandbox = useSandbox({
  now: () => now,
  timing: { evalQueueMs: QUEUE, evalStepMs: STEP, pollHintMs: 250 },
});
const newKey = (balance = 10) => sandbox().state.createKey({ balance });
const client = (balance?: number) => evalClient(sandbox, newKey(balance));

const MINI = { model: 'openai/gpt-sandbox-mini' };
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ input: `question ${i}`, expected_output: `${i}` }));

async function create(api: EvalClient, body: Reply) {
  const res = await api.post('/experiments', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('sandbox evals: experiment requests', () => {
  it.each([
    ['no candidates', { items: rows(1) }, 'missing_required_parameter', 'candidates'],
    ['an empty candidate list', { items: rows(1), candidates: [] }, 'invalid_parameter_value', 'candidates'],
    [
      'a candidate without a model',
      { items: rows(1), candidates: [{}] },
      'missing_required_parameter',
      'candidates[0].model',
    ],
    [
      'an unknown model',
      { items: rows(1), candidates: [MINI, { model: 'acme/nothing' }] },
      'model_not_found',
      'candidates[1].model',
    ],
    [
      'a prompt without {{input}}',
      { items: rows(1), candidates: [{ ...MINI, prompt: 'Answer well' }] },
      'invalid_parameter_value',
      'candidates[0].prompt',
    ],
    [
      'a prompt with another placeholder',
      { items: rows(1), candidates: [{ ...MINI, prompt: '{{input}} {{expected_output}}' }] },
      'invalid_parameter_value',
      'candidates[0].prompt',
    ],
    [
      'two candidates with one id',
      {
        items: rows(1),
        candidates: [
          { ...MINI, id: 'x' },
          { ...MINI, id: 'x' },
        ],
      },
      'invalid_parameter_value',
      'candidates[1].id',
    ],
    [
      'neither rows nor a version',
      { candidates: [MINI] },
      'missing_required_parameter',
      'dataset_version_id',
    ],
    [
      'both rows and a version',
      { items: rows(1), dataset_version_id: 'evaldsver_000001', candidates: [MINI] },
      'invalid_parameter_value',
      'items',
    ],
    [
      'a row without input',
      { items: [{ expected_output: 'x' }], candidates: [MINI] },
      'missing_required_parameter',
      'items[0].input',
    ],
    ['no rows at all', { items: [], candidates: [MINI] }, 'invalid_parameter_value', 'items'],
    [
      'a scorer listed twice',
      { items: rows(1), candidates: [MINI], scorer_ids: ['contains', 'contains'] },
      'invalid_parameter_value',
      'scorer_ids[1]',
    ],
    [
      'bad settings',
      { items: rows(1), candidates: [MINI], settings: { store_content: 'yes' } },
      'invalid_parameter_value',
      'settings.store_content',
    ],
  ])('refuses %s with a 400', async (_what, body, code, param) => {
    const res = await client().post('/experiments', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(commonError('invalid_request_error', code, param));
  });

  it.each([
    ['scorer', { items: rows(1), candidates: [MINI], scorer_ids: ['nope'] }, 'scorer_ids[0]'],
    ['project', { items: rows(1), candidates: [MINI], project_id: 'evalproj_999999' }, 'project_id'],
    ['dataset version', { dataset_version_id: 'evaldsver_999999', candidates: [MINI] }, 'dataset_version_id'],
  ])('answers 404 naming an unknown %s', async (_what, body, param) => {
    const res = await client().post('/experiments', body);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(commonError('not_found_error', 'not_found', param));
  });

  it('accepts `rows` as the name of inline rows', async () => {
    const exp = await create(client(), { rows: rows(2), candidates: [MINI] });
    expect(exp.progress.total_items).toBe(2);
  });

  it('runs a frozen dataset version, even after the dataset is deleted', async () => {
    const api = client();
    const ds = (await api.post('/datasets', { name: 'd', items: rows(2) })).body;
    const version = (await api.post(`/datasets/${ds.id}/versions`)).body;
    await api.delete(`/datasets/${ds.id}`);
    const exp = await create(api, {
      dataset_version_id: version.id,
      candidates: [MINI],
      scorer_ids: ['contains'],
    });
    expect(exp.dataset_version_id).toBe(version.id);
    now += 60_000;
    const items = (await api.get(`/experiments/${exp.id}/output_items`)).body.data;
    expect(items.map((i: Reply) => [i.dataset_item_id, i.input, i.scores[0].score])).toEqual([
      [ds.items[0].id, 'question 0', 1],
      [ds.items[1].id, 'question 1', 1],
    ]);
  });

  it('files experiments without a project under one default workbench project, and lists by project', async () => {
    const api = client();
    const first = await create(api, { items: rows(1), candidates: [MINI] });
    const second = await create(api, { items: rows(1), candidates: [MINI] });
    expect(second.project_id).toBe(first.project_id);
    const projects = (await api.get('/projects')).body.data;
    expect(projects).toEqual([expect.objectContaining({ id: first.project_id, name: 'Workbench' })]);
    const own = (await api.post('/projects', { name: 'own' })).body;
    const third = await create(api, { items: rows(1), candidates: [MINI], project_id: own.id });
    expect(third.project_id).toBe(own.id);
    const all = (await api.get('/experiments')).body;
    expect(all.object).toBe('list');
    expect(all.data.map((e: Reply) => e.id)).toEqual([first.id, second.id, third.id]);
    const filtered = (await api.get(`/experiments?project_id=${own.id}`)).body.data;
    expect(filtered.map((e: Reply) => e.id)).toEqual([third.id]);
  });

  it('serves output items whole, ignoring a limit the route does not list, and pages on after', async () => {
    const api = client();
    const exp = await create(api, {
      items: rows(3),
      candidates: [MINI, MINI].map((c, i) => ({ ...c, id: `c${i}` })),
    });
    const first = (await api.get(`/experiments/${exp.id}/output_items?limit=4`)).body;
    expect(first).toMatchObject({ object: 'list', has_more: false });
    expect(first.data).toHaveLength(6);
    expect(first.first_id).toBe(first.data[0].id);
    expect(first.data[0].id).toMatch(/^evalout_\d{6}_001$/);
    const rest = (await api.get(`/experiments/${exp.id}/output_items?after=${first.data[3].id}`)).body;
    expect(rest.has_more).toBe(false);
    expect(rest.data.map((i: Reply) => [i.item_index, i.candidate_id])).toEqual([
      [2, 'c0'],
      [2, 'c1'],
    ]);
    const badAfter = await api.get(`/experiments/${exp.id}/output_items?after=evalout_nope`);
    expect(badAfter.body).toEqual(commonError('invalid_request_error', 'invalid_parameter_value', 'after'));
  });

  it('sends the poll hint while an experiment runs, and not once it has ended', async () => {
    const api = client();
    const exp = await create(api, { items: rows(1), candidates: [MINI] });
    const running = await api.get(`/experiments/${exp.id}`);
    expect(running.headers.get('retry-after-ms')).toBe('250');
    now += 60_000;
    const done = await api.get(`/experiments/${exp.id}`);
    expect(done.body.status).toBe('completed');
    expect(done.headers.get('retry-after-ms')).toBeNull();
  });
});

describe('sandbox evals: cancellation', () => {
  it('stops the run where it is, charges only what ran, and cannot cancel twice', async () => {
    const api = client();
    const before = sandbox().state.balance(api.key);
    const exp = await create(api, { items: rows(3), candidates: [MINI], scorer_ids: ['contains'] });
    now += QUEUE + 3 * STEP;
    const cancelled = await api.post(`/experiments/${exp.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_at: new Date(now).toISOString() });
    expect(cancelled.body.progress).toMatchObject({ completed_traces: 2, completed_scores: 1 });
    now += 60_000;
    const later = (await api.get(`/experiments/${exp.id}`)).body;
    expect(later.progress).toEqual(cancelled.body.progress);
    const items = (await api.get(`/experiments/${exp.id}/output_items`)).body.data;
    expect(items.map((i: Reply) => [i.status, i.scores[0].status])).toEqual([
      ['completed', 'completed'],
      ['completed', 'cancelled'],
      ['cancelled', 'cancelled'],
    ]);
    const spent = items[0].cost_usd + items[1].cost_usd;
    expect(sandbox().state.balance(api.key)).toBeCloseTo(before - spent, 9);
    const again = await api.post(`/experiments/${exp.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(commonError('conflict_error', 'conflict'));
  });

  it('cancels a queued experiment before any work', async () => {
    const api = client();
    const exp = await create(api, { items: rows(1), candidates: [MINI] });
    const cancelled = (await api.post(`/experiments/${exp.id}/cancel`)).body;
    expect(cancelled).toMatchObject({ status: 'cancelled', started_at: null });
    expect(cancelled.progress.completed_traces).toBe(0);
  });
});

describe('sandbox evals: run limits (spec 2 §8)', () => {
  it.each([
    ['101 items', { items: rows(101), candidates: [MINI] }, 'items', /at most 100 items.*2 experiments/],
    [
      '6 candidates',
      { items: rows(1), candidates: Array(6).fill(MINI) },
      'candidates',
      /at most 5 candidates/,
    ],
    [
      '11 scorers',
      { items: rows(1), candidates: [MINI], scorer_ids: Array.from({ length: 11 }, (_, i) => `s${i}`) },
      'scorer_ids',
      /at most 10 scorers/,
    ],
    [
      '102 work units',
      { items: rows(17), candidates: [MINI, MINI], scorer_ids: ['contains', 'llm_judge'] },
      'items',
      /needs 102 \(17 x 2 x 3\).*at most 16 items per experiment.*2 experiments/,
    ],
  ])('refuses %s with a 400 that says how to split', async (_what, body, param, message) => {
    const res = await client().post('/experiments', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(commonError('invalid_request_error', 'invalid_parameter_value', param));
    expect(res.body.error.message).toMatch(message);
  });

  it('refuses a version with too many rows, naming dataset_version_id', async () => {
    const api = client();
    const ds = (await api.post('/datasets', { name: 'big', items: rows(101) })).body;
    const version = (await api.post(`/datasets/${ds.id}/versions`)).body;
    const res = await api.post('/experiments', { dataset_version_id: version.id, candidates: [MINI] });
    expect(res.body).toEqual(
      commonError('invalid_request_error', 'invalid_parameter_value', 'dataset_version_id'),
    );
  });

  it('accepts exactly 100 work units', async () => {
    const exp = await create(client(), {
      items: rows(25),
      candidates: [MINI, { ...MINI, id: 'b' }],
      scorer_ids: ['contains'],
    });
    expect(exp.progress).toMatchObject({ total_items: 25, total_traces: 50, total_scores: 50 });
  });
});

describe('sandbox evals: rate limits', () => {
  it('allows 10 experiments a minute per key, then 429 with Retry-After', async () => {
    const api = client();
    const other = client();
    for (let i = 0; i < 10; i += 1) await create(api, { items: rows(1), candidates: [MINI] });
    now += 20_000;
    const limited = await api.post('/experiments', { items: rows(1), candidates: [MINI] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('40');
    expect(limited.body).toEqual(commonError('rate_limit_error', 'rate_limit_exceeded'));
    // Another key has its own allowance; the first key's returns as the window moves.
    await create(other, { items: rows(1), candidates: [MINI] });
    now += 40_000;
    await create(api, { items: rows(1), candidates: [MINI] });
  });

  it('allows 500 experiment items a minute per key', async () => {
    const api = client();
    for (let i = 0; i < 5; i += 1) {
      await create(api, { items: rows(100), candidates: [MINI] });
      now += 1_000;
    }
    const limited = await api.post('/experiments', { items: rows(1), candidates: [MINI] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('55');
    expect(limited.body.error.message).toContain('500 experiment items');
  });
});

describe('sandbox evals: billing', () => {
  it('answers 402 with the run price before creating anything when the balance is short', async () => {
    const api = client(0);
    const body = { items: rows(2), candidates: [MINI], scorer_ids: ['contains'] };
    const res = await api.post('/experiments', body);
    expect(res.status).toBe(402);
    const price =
      (await chatAnswer(sandbox(), newKey(), MINI.model, [{ role: 'user', content: 'question 0' }])).cost +
      (await chatAnswer(sandbox(), newKey(), MINI.model, [{ role: 'user', content: 'question 1' }])).cost;
    expect(res.body).toEqual({
      error: 'Insufficient balance',
      requiredBalance: expect.any(Number),
      status: 402,
    });
    expect(res.body.requiredBalance).toBeCloseTo(price, 9);
    expect((await api.get('/experiments')).body.data).toEqual([]);
  });

  it('fails the experiment when a trace cannot be paid for mid-run', async () => {
    const api = client();
    const exp = await create(api, {
      items: rows(3),
      candidates: [MINI],
      scorer_ids: ['contains'],
      settings: { store_content: true },
    });
    now += QUEUE + 2 * STEP;
    await api.get(`/experiments/${exp.id}`);
    sandbox().state.setBalance(api.key, 0);
    now += 60_000;
    const failed = (await api.get(`/experiments/${exp.id}`)).body;
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'insufficient_balance', message: 'Insufficient balance' },
      completed_at: expect.any(String),
    });
    expect(failed.progress).toMatchObject({ completed_traces: 1, failed_traces: 1, completed_scores: 1 });
    const items = (await api.get(`/experiments/${exp.id}/output_items`)).body.data;
    expect(items[1]).toMatchObject({
      status: 'failed',
      output: null,
      content_suppressed_reason: 'output_content_unavailable',
      error: { code: 'insufficient_balance' },
      trace: { status: 'failed', cost_usd: 0, output_content: null, input_content: 'question 1' },
    });
    expect(items[1].trace.metadata).toEqual({ content_suppressed_reason: 'output_content_unavailable' });
    // Nothing after the failed trace ran: not its score, not the next row.
    expect(items[1].scores[0]).toMatchObject({ status: 'skipped', score: null });
    expect(items[2]).toMatchObject({ status: 'skipped', trace: null, scores: [{ status: 'skipped' }] });
  });
});

describe('sandbox evals: content storage', () => {
  const run = async (api: EvalClient, extra: Reply) => {
    const exp = await create(api, { items: rows(1), candidates: [MINI], ...extra });
    now += 60_000;
    return { exp, item: (await api.get(`/experiments/${exp.id}/output_items`)).body.data[0] };
  };

  it('keeps traces metadata-only by default', async () => {
    const { exp, item } = await run(client(), {});
    expect(exp.settings).toEqual({ store_content: false, redaction: false });
    expect(item.output).toBeNull();
    expect(item.content_suppressed_reason).toBeUndefined();
    expect(item.trace).toMatchObject({
      store_content: false,
      input_content: null,
      output_content: null,
      metadata: {},
    });
    expect(item.trace.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('stores prompt and answer when store_content is on', async () => {
    const api = client();
    const { item } = await run(api, { settings: { store_content: true } });
    const answer = (
      await chatAnswer(sandbox(), newKey(), MINI.model, [{ role: 'user', content: 'question 0' }])
    ).text;
    expect(item.output).toBe(answer);
    expect(item.trace).toMatchObject({
      store_content: true,
      input_content: 'question 0',
      output_content: answer,
    });
  });

  it('suppresses content under redaction with pii_redaction_enabled', async () => {
    const { exp, item } = await run(client(), { settings: { store_content: true, redaction: 'pii' } });
    expect(exp.settings).toEqual({ store_content: true, redaction: 'pii' });
    expect(item.content_suppressed_reason).toBe('pii_redaction_enabled');
    // The item leaves its input out too (an item without input: the platform's reference, issue 32).
    expect(item).not.toHaveProperty('input');
    expect(item.trace).toMatchObject({
      input_content: null,
      output_content: null,
      metadata: { content_suppressed_reason: 'pii_redaction_enabled' },
    });
  });

  it("takes store_content and redaction from the project's settings when the request has none", async () => {
    const api = client();
    const project = (
      await api.post('/projects', { name: 'p', settings: { store_content: true, redaction: true } })
    ).body;
    const { exp, item } = await run(api, { project_id: project.id });
    expect(exp.settings).toEqual({ store_content: true, redaction: true });
    expect(item.content_suppressed_reason).toBe('pii_redaction_enabled');
    const { exp: override } = await run(api, { project_id: project.id, settings: { redaction: false } });
    expect(override.settings).toEqual({ store_content: true, redaction: false });
  });
});
