import { describe, expect, it } from 'vitest';
import { chatAnswer, type EvalClient, evalClient, type Reply } from './evals-helpers.js';
import { useSandbox } from './helpers.js';

let now = Date.UTC(2026, 1, 2, 9, 0, 0);
const QUEUE = 1_000;
const STEP = 100;
const sandbox = useSandbox({ now: () => now, timing: { evalQueueMs: QUEUE, evalStepMs: STEP } });
const newKey = (balance = 10) => sandbox().state.createKey({ balance });
const client = (balance?: number) => evalClient(sandbox, newKey(balance));
const iso = (ms: number) => new Date(ms).toISOString();

/** Lets the sandbox clock run past the whole experiment, then reads it and its output items. */
async function finish(api: EvalClient, id: string): Promise<{ exp: Reply; items: Reply }> {
  now += 60_000;
  const exp = (await api.get(`/experiments/${id}`)).body;
  const items = (await api.get(`/experiments/${id}/output_items`)).body.data;
  return { exp, items };
}

/** Independent re-implementations of the documented scoring rules (evals/scoring.ts, judge.ts). */
const words = (text: string) => [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
const coverage = (answer: string, reference: string) => {
  const want = words(reference);
  const have = new Set(words(answer));
  return want.length === 0
    ? 1
    : Math.round((want.filter((w) => have.has(w)).length / want.length) * 100) / 100;
};

describe('sandbox evals: an experiment of 3 rows x 2 candidates x 2 scorers', () => {
  const rows = [
    { input: 'What is the capital of France?', expected_output: 'Capital of FRANCE' },
    { input: 'Name the largest planet', expected_output: 'Jupiter' },
    { input: 'Spell ORBIT in lower case', expected_output: 'orbit spelled lower' },
  ];
  const candidates = [
    { id: 'mini', model: 'openai/gpt-sandbox-mini' },
    {
      id: 'claude',
      model: 'anthropic/claude-sandbox',
      system: 'Be brief.',
      prompt: 'Answer, spelled out: {{input}}',
    },
  ];

  it('answers like chat, scores like the documented rules, and charges each trace', async () => {
    const api = client();
    const judge = await api.post('/scorers', {
      id: 'coverage-judge',
      scorer_type: 'llm_judge',
      prompt: 'Does "{{output}}" answer "{{input}}" as "{{expected_output}}" would?',
      config: { pass_threshold: 0.7 },
    });
    expect(judge.status).toBe(201);
    const before = sandbox().state.balance(api.key);
    const created = await api.post('/experiments', {
      name: 'capitals',
      items: rows,
      candidates,
      scorer_ids: ['contains', 'coverage-judge'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'queued', name: 'capitals', dataset_version_id: null });
    const { exp, items } = await finish(api, created.body.id);

    expect(exp.status).toBe('completed');
    expect(exp.progress).toEqual({
      total_items: 3,
      total_traces: 6,
      completed_traces: 6,
      failed_traces: 0,
      total_scores: 12,
      completed_scores: 12,
      failed_scores: 0,
    });
    expect(items).toHaveLength(6);

    // The same answers from chat, with another key, then the scores worked out here.
    const other = newKey();
    let cost = 0;
    for (const [r, row] of rows.entries()) {
      for (const [c, cand] of candidates.entries()) {
        const prompt = (cand.prompt ?? '{{input}}').replace('{{input}}', row.input);
        const messages = [
          ...(cand.system ? [{ role: 'system', content: cand.system }] : []),
          { role: 'user', content: prompt },
        ];
        const chat = await chatAnswer(sandbox(), other, cand.model, messages);
        cost += chat.cost;
        const item = items[r * 2 + c];
        expect(item).toMatchObject({
          item_index: r,
          candidate_id: cand.id,
          model: cand.model,
          status: 'completed',
        });
        expect(item.trace.cost_usd).toBeCloseTo(chat.cost, 12);
        const contains = chat.text.toLowerCase().includes(row.expected_output.toLowerCase());
        const judged = coverage(chat.text, row.expected_output);
        expect(item.scores).toEqual([
          expect.objectContaining({
            scorer_id: 'contains',
            status: 'completed',
            score: contains ? 1 : 0,
            passed: contains,
          }),
          expect.objectContaining({
            scorer_id: 'coverage-judge',
            scorer_type: 'llm_judge',
            status: 'completed',
            score: judged,
            passed: judged >= 0.7,
            reasoning: expect.stringContaining(`Score ${judged}.`),
          }),
        ]);
      }
    }
    // The rows were chosen so the scorers pass and fail and the candidates differ (row x candidate).
    const grid = (s: number) =>
      [0, 2, 4].map((i) => [items[i].scores[s].score, items[i + 1].scores[s].score]);
    expect(grid(0)).toEqual([
      [1, 1],
      [0, 0],
      [0, 0],
    ]);
    expect(grid(1)).toEqual([
      [1, 1],
      [0, 0],
      [0.67, 1],
    ]);
    expect(sandbox().state.balance(api.key)).toBeCloseTo(before - cost, 9);
  });

  it('moves queued -> in_progress -> completed on the sandbox clock, one work unit per step', async () => {
    const api = client();
    const created = (
      await api.post('/experiments', { items: rows, candidates, scorer_ids: ['contains', 'llm_judge'] })
    ).body;
    const t0 = now;
    expect(created).toMatchObject({
      id: expect.stringMatching(/^evalexp_\d{6}$/),
      object: 'eval.experiment',
      status: 'queued',
      started_at: null,
      completed_at: null,
      cancelled_at: null,
      error: null,
      created_at: iso(t0),
      expires_at: iso(t0 + 30 * 86_400_000),
      settings: { store_content: false, redaction: false },
      project_id: expect.stringMatching(/^evalproj_/),
    });
    expect(created.candidates).toEqual([
      {
        id: 'mini',
        name: 'openai/gpt-sandbox-mini',
        model: 'openai/gpt-sandbox-mini',
        system: null,
        prompt: '{{input}}',
      },
      { id: 'claude', name: 'anthropic/claude-sandbox', ...candidates[1] },
    ]);
    expect(created.scorers.map((s: Reply) => s.id)).toEqual(['contains', 'llm_judge']);
    const at = async (ms: number) => {
      now = t0 + ms;
      return (await api.get(`/experiments/${created.id}`)).body;
    };
    const counts = (e: Reply) => [e.progress.completed_traces, e.progress.completed_scores];
    expect((await at(QUEUE - 1)).status).toBe('queued');
    const started = await at(QUEUE);
    expect(started).toMatchObject({ status: 'in_progress', started_at: iso(t0 + QUEUE) });
    expect(counts(started)).toEqual([0, 0]);
    // Each row: both candidates answer, then each answer gets both scores (6 steps a row).
    expect(counts(await at(QUEUE + 2 * STEP + 50))).toEqual([2, 0]);
    expect(counts(await at(QUEUE + 6 * STEP))).toEqual([2, 4]);
    expect(counts(await at(QUEUE + 7 * STEP))).toEqual([3, 4]);
    const almost = await at(QUEUE + 18 * STEP - 1);
    expect(almost.status).toBe('in_progress');
    expect(counts(almost)).toEqual([6, 11]);
    const done = await at(QUEUE + 18 * STEP);
    expect(done).toMatchObject({ status: 'completed', completed_at: iso(t0 + QUEUE + 18 * STEP) });
    expect(counts(done)).toEqual([6, 12]);
  });

  it('shows pending output items while the run is under way', async () => {
    const api = client();
    const created = (
      await api.post('/experiments', { items: rows, candidates: [candidates[0]], scorer_ids: ['contains'] })
    ).body;
    now += QUEUE + STEP;
    const items = (await api.get(`/experiments/${created.id}/output_items`)).body.data;
    expect(items.map((i: Reply) => [i.status, i.scores[0].status])).toEqual([
      ['completed', 'pending'],
      ['pending', 'pending'],
      ['pending', 'pending'],
    ]);
    expect(items[1].trace).toBeNull();
  });
});

describe('sandbox evals: rule scorers', () => {
  it('honours exact_match case_sensitive and trim', async () => {
    const api = client();
    const answer = (
      await chatAnswer(sandbox(), newKey(), 'openai/gpt-sandbox', [{ role: 'user', content: 'Hi there' }])
    ).text;
    await api.post('/scorers', {
      id: 'exact-ci',
      scorer_type: 'exact_match',
      config: { case_sensitive: false },
    });
    await api.post('/scorers', { id: 'exact-raw', scorer_type: 'exact_match', config: { trim: false } });
    const exp = (
      await api.post('/experiments', {
        items: [
          { input: 'Hi there', expected_output: answer.toUpperCase() },
          { input: 'Hi there', expected_output: `  ${answer}\n` },
          { input: 'Hi there' },
        ],
        candidates: [{ model: 'openai/gpt-sandbox' }],
        scorer_ids: ['exact_match', 'exact-ci', 'exact-raw'],
      })
    ).body;
    const { items } = await finish(api, exp.id);
    const grid = items.map((i: Reply) => i.scores.map((s: Reply) => s.score));
    expect(grid).toEqual([
      [0, 1, 0],
      [1, 1, 0],
      [null, null, null],
    ]);
    expect(items[2].scores[0]).toMatchObject({
      status: 'failed',
      passed: null,
      error: { code: 'missing_expected_output', message: expect.any(String) },
    });
  });

  it('applies contains (value or expected output), regex, json_schema and threshold', async () => {
    const api = client();
    const defs = [
      { id: 'has-orbit', scorer_type: 'contains', config: { value: 'orbit sandbox' } },
      { id: 'has-expected-cs', scorer_type: 'contains' },
      { id: 'starts', scorer_type: 'regex', config: { pattern: '^sandbox reply', flags: 'i' } },
      { id: 'digits', scorer_type: 'regex', config: { pattern: '\\d{3}' } },
      { id: 'object', scorer_type: 'json_schema', config: { schema: { type: 'object' } } },
      { id: 'short', scorer_type: 'threshold', config: { metric: 'length', max: 1_000 } },
      { id: 'many-tokens', scorer_type: 'threshold', config: { metric: 'tokens', min: 1_000 } },
      { id: 'numeric', scorer_type: 'threshold', config: { min: 0 } },
      { id: 'slow', scorer_type: 'threshold', config: { metric: 'latency_ms', min: 0, max: 100_000 } },
    ];
    for (const def of defs) expect((await api.post('/scorers', def)).status).toBe(201);
    const exp = (
      await api.post('/experiments', {
        items: [{ input: 'Tell me about Mars', expected_output: 'about mars' }],
        candidates: [{ model: 'openai/gpt-sandbox-mini' }],
        scorer_ids: [...defs.map((d) => d.id), 'json_valid'],
      })
    ).body;
    const { items } = await finish(api, exp.id);
    const item = items[0];
    const byId = Object.fromEntries(item.scores.map((s: Reply) => [s.scorer_id, s]));
    expect(Object.fromEntries(Object.entries(byId).map(([id, s]) => [id, (s as Reply).score]))).toEqual({
      'has-orbit': 1,
      'has-expected-cs': 0,
      starts: 1,
      digits: 0,
      object: 0,
      short: 1,
      'many-tokens': 0,
      numeric: 0,
      slow: 1,
      json_valid: 0,
    });
    expect(byId.object.reasoning).toBe('The output is not JSON.');
    expect(byId.numeric.reasoning).toBe('The number of the output is not a number.');
    expect(byId.slow.reasoning).toBe(`The latency_ms is ${item.trace.latency_ms}, within [0, 100000].`);
    expect(item.trace.latency_ms).toBe(100 + 10 * item.trace.usage.completion_tokens);
  });
});

describe('sandbox evals: judges', () => {
  it('scores pairwise_llm by coverage against the other candidates (win 1, tie 0.5, loss 0)', async () => {
    const api = client();
    const exp = (
      await api.post('/experiments', {
        items: [{ input: 'alpha beta', expected_output: 'alpha beta gamma' }],
        candidates: [
          { id: 'plain', model: 'openai/gpt-sandbox-mini' },
          { id: 'primed', model: 'openai/gpt-sandbox-mini', prompt: 'Think of gamma: {{input}}' },
          { id: 'plain-too', model: 'google/gemini-sandbox' },
        ],
        scorer_ids: ['pairwise_llm'],
      })
    ).body;
    const { items } = await finish(api, exp.id);
    expect(items.map((i: Reply) => [i.candidate_id, i.scores[0].score, i.scores[0].passed])).toEqual([
      ['plain', 0.25, false],
      ['primed', 1, true],
      ['plain-too', 0.25, false],
    ]);
    expect(items[1].scores[0].reasoning).toContain('won 1 vs 0.67');
  });

  it('compares a single candidate with the expected output, and fails without one', async () => {
    const api = client();
    const exp = (
      await api.post('/experiments', {
        items: [{ input: 'alpha beta', expected_output: 'alpha beta gamma' }, { input: 'alpha' }],
        candidates: [{ model: 'openai/gpt-sandbox-mini' }],
        scorer_ids: ['pairwise_llm', 'llm_judge'],
      })
    ).body;
    const { items } = await finish(api, exp.id);
    expect(items[0].scores.map((s: Reply) => s.score)).toEqual([0, 0.67]);
    expect(items[1].scores[0]).toMatchObject({
      status: 'failed',
      error: { code: 'missing_expected_output' },
    });
    // Without an expected output the judge measures coverage of the input.
    expect(items[1].scores[1]).toMatchObject({ status: 'completed', score: 1, passed: true });
  });

  it('reports the failed scores of a judge that fails partway (fail-judge rows)', async () => {
    const api = client();
    const exp = (
      await api.post('/experiments', {
        items: [
          { input: 'one', expected_output: 'one' },
          { input: 'two fail-judge', expected_output: 'two' },
          { input: 'three', expected_output: 'three' },
        ],
        candidates: [{ model: 'openai/gpt-sandbox-mini' }],
        scorer_ids: ['contains', 'llm_judge'],
      })
    ).body;
    const { exp: done, items } = await finish(api, exp.id);
    expect(done.status).toBe('completed');
    expect(done.progress).toMatchObject({ completed_scores: 5, failed_scores: 1, completed_traces: 3 });
    expect(items[1].scores[1]).toEqual({
      scorer_id: 'llm_judge',
      scorer_version_id: 'evalscorerver_builtin_llm_judge',
      scorer_type: 'llm_judge',
      status: 'failed',
      score: null,
      passed: null,
      reasoning: null,
      error: { code: 'judge_error', message: expect.stringContaining('fail-judge') },
    });
    expect(items[1].scores[0]).toMatchObject({ status: 'completed', score: 1 });
  });

  it('fails the judge calls chosen through the control route, for the chosen key only', async () => {
    const api = client();
    const bystander = client();
    const control = `${sandbox().url}/__sandbox/evals/judge-faults`;
    const set = await fetch(control, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ after: 1, times: 2, key: api.key, message: 'judge overloaded' }),
    });
    expect(set.status).toBe(201);
    expect(await set.json()).toEqual({ id: expect.stringMatching(/^judgefault_/) });
    const body = {
      items: ['a', 'b', 'c', 'd'].map((x) => ({ input: x, expected_output: x })),
      candidates: [{ model: 'openai/gpt-sandbox-mini' }],
      scorer_ids: ['llm_judge'],
    };
    const theirs = (await bystander.post('/experiments', body)).body;
    expect((await finish(bystander, theirs.id)).exp.progress.failed_scores).toBe(0);
    const mine = (await api.post('/experiments', body)).body;
    const { exp, items } = await finish(api, mine.id);
    expect(items.map((i: Reply) => i.scores[0].status)).toEqual([
      'completed',
      'failed',
      'failed',
      'completed',
    ]);
    expect(items[1].scores[0].error).toEqual({ code: 'judge_error', message: 'judge overloaded' });
    expect(exp.progress).toMatchObject({ completed_scores: 2, failed_scores: 2 });
    expect(await (await fetch(control)).json()).toEqual({ data: [] });
    // Pending faults can be listed and cleared; a bad spec is a 400.
    await fetch(control, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await (await fetch(control)).json()).data).toEqual([
      expect.objectContaining({ after: 0, times: 1 }),
    ]);
    expect(await (await fetch(control, { method: 'DELETE' })).json()).toEqual({ cleared: 1 });
    const bad = await fetch(control, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ times: 0 }),
    });
    expect(bad.status).toBe(400);
  });
});
