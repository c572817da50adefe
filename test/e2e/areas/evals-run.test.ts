import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, type Out, out, resourceText, startHarness, textOf } from '../../helpers/harness.js';

/**
 * eval_run end to end: a real experiment on the sandbox, its score table checked against scores
 * worked out here from the sandbox's documented rules (src/sandbox/evals/candidate.ts, scoring.ts,
 * judge.ts), never by calling the sandbox's own scoring code.
 */

const TIMING = { evalQueueMs: 100, evalStepMs: 50, pollHintMs: 100 };
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'evals' }, sandbox: { timing: TIMING } });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.sandbox.clearRequests());

const EXPERIMENTS = '/api/v1/evals/experiments';
const evalRequests = () => h.sandbox.requests.filter((r) => r.path.startsWith('/api/v1/evals'));

// The documented rules, written out again here.
/** candidate.ts: the chat answer to the candidate's prompt with {{input}} filled in. */
const answer = (prompt: string) =>
  `Sandbox reply to: "${prompt.replace(/\s+/g, ' ').trim().slice(0, 200)}". This answer comes from the orbit ` +
  'sandbox, which gives the same words to the same request, so tests and offline agents can rely on it.';
/** judge.ts: share of the reference's distinct words the answer has, two decimals. */
const words = (text: string) => [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
const coverage = (text: string, reference: string) => {
  const want = words(reference);
  const have = new Set(words(text));
  return want.length ? Math.round((want.filter((w) => have.has(w)).length / want.length) * 100) / 100 : 1;
};
const round3 = (n: number) => Math.round(n * 1000) / 1000;

const rows = [
  { input: 'What is the capital of France?', expected_output: 'Capital of FRANCE' },
  { input: 'Name the largest planet', expected_output: 'Jupiter' },
  { input: 'Spell ORBIT in lower case', expected_output: 'orbit spelled lower' },
];
const candidates = [
  { model: 'openai/gpt-sandbox-mini' },
  { model: 'anthropic/claude-sandbox', system: 'Be brief.', prompt: 'Answer, spelled out: {{input}}' },
];
const judge = {
  scorer_type: 'llm_judge',
  prompt: 'Does "{{output}}" answer "{{input}}" as "{{expected_output}}" would?',
  config: { pass_threshold: 0.7 },
};

/** Every (row, candidate, scorer) score by the rules: contains (built-in, ignoring case), then the judge. */
function expectedScores() {
  return rows.flatMap((row, r) =>
    candidates.map((c, k) => {
      const text = answer((c.prompt ?? '{{input}}').replace('{{input}}', row.input));
      const contains = text.toLowerCase().includes(row.expected_output.toLowerCase()) ? 1 : 0;
      return { row: r + 1, candidate: k, contains, judged: coverage(text, row.expected_output) };
    }),
  );
}

describe('eval_run', () => {
  it('runs 3 rows x 2 candidates x 2 scorers and returns the score table the rules give', async () => {
    const before = h.sandbox.state.balance(h.sandbox.demoKey);
    const progress: Progress[] = [];
    const result = await h.call(
      'eval_run',
      { rows, candidates, scorers: ['contains', judge] },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o).toMatchObject({
      experiment_id: expect.stringMatching(/^evalexp_/),
      status: 'completed',
      progress: 'traces 6/6, scores 12/12',
    });
    const judgeId = o.table[1].scorer as string;
    expect(judgeId).toMatch(/^mcp_llm_judge_[0-9a-f]{12}$/);

    const scores = expectedScores();
    const cell = (k: number, pick: (s: (typeof scores)[number]) => number, threshold: number) => {
      const mine = scores.filter((s) => s.candidate === k).map(pick);
      return {
        mean: round3(mine.reduce((a, b) => a + b, 0) / mine.length),
        pass_rate: round3(mine.filter((v) => v >= threshold).length / mine.length),
        count: 3,
        failures: 0,
      };
    };
    expect(o.table).toEqual(
      candidates.flatMap((c, k) => [
        { candidate: c.model, scorer: 'contains', ...cell(k, (s) => s.contains, 1) },
        { candidate: c.model, scorer: judgeId, ...cell(k, (s) => s.judged, 0.7) },
      ]),
    );
    // The rows were chosen so scorers and candidates differ (see the sandbox's own test).
    expect(o.table.map((t: Out) => t.mean)).toEqual([0.333, 0.557, 0.333, 0.667]);

    // Worst first: every score below 1, lowest first, in run order among equals; five at most.
    const below = scores
      .flatMap((s) => [
        { ...s, scorer: 'contains', score: s.contains },
        { ...s, scorer: judgeId, score: s.judged },
      ])
      .filter((s) => s.score < 1)
      .sort((a, b) => a.score - b.score);
    expect(o.worst).toHaveLength(Math.min(5, below.length));
    o.worst.forEach((line: string, i: number) => {
      const w = below[i]!;
      expect(
        line.startsWith(`row ${w.row}, ${candidates[w.candidate]!.model}, ${w.scorer}: ${w.score}: `),
      ).toBe(true);
      expect(line).toContain(`input: ${JSON.stringify(rows[w.row - 1]!.input)}`);
    });

    // What it cost is what the balance lost, and the spend budget hears of it.
    const spent = before - h.sandbox.state.balance(h.sandbox.demoKey);
    expect(o.cost_usd).toBeGreaterThan(0);
    expect(o.cost_usd).toBeCloseTo(spent, 6);

    // What the platform saw: the inline judge made once, then the experiment, then polls and items.
    const seen = evalRequests().map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(seen.slice(0, 3)).toEqual([
      `GET /api/v1/evals/scorers/${judgeId} 404`,
      'POST /api/v1/evals/scorers 201',
      `POST ${EXPERIMENTS} 201`,
    ]);
    expect(seen.at(-1)).toBe(`GET ${EXPERIMENTS}/${o.experiment_id}/output_items 200`);
    const create = evalRequests().find((r) => r.method === 'POST' && r.path === EXPERIMENTS)!;
    expect(create.json).toEqual({
      items: rows,
      candidates: [
        { id: 'c1', name: candidates[0]!.model, ...candidates[0] },
        { id: 'c2', name: candidates[1]!.model, ...candidates[1] },
      ],
      scorer_ids: ['contains', judgeId],
    });
    expect(evalRequests()[1]!.json).toEqual({ id: judgeId, name: 'llm_judge (inline)', ...judge });

    // Progress: readable, in order, never backwards.
    const messages = progress.map((p) => p.message ?? '');
    expect(messages[0]).toBe(`experiment ${o.experiment_id}: 3 rows x 2 candidates x 2 scorers`);
    expect(messages.at(-1)).toBe('experiment completed; reading the scores');
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    const counters = messages
      .map((m) => /^traces (\d+)\/6, scores (\d+)\/12$/.exec(m))
      .filter((m) => m !== null)
      .map((m) => [Number(m[1]), Number(m[2])]);
    expect(counters.length).toBeGreaterThan(0);
    expect(counters.some(([t, s]) => t! + s! < 18)).toBe(true);
    for (let i = 1; i < counters.length; i++) {
      expect(counters[i]![0]).toBeGreaterThanOrEqual(counters[i - 1]![0]!);
      expect(counters[i]![1]).toBeGreaterThanOrEqual(counters[i - 1]![1]!);
    }
    console.log(`eval_run progress events (${messages.length}): ${messages.join(' | ')}`);
    console.log(textOf(result));

    // The same inline judge again is reused, not made twice.
    h.sandbox.clearRequests();
    const again = await h.call('eval_run', { rows: rows.slice(0, 1), candidates, scorers: [judge] });
    expect(again.isError, textOf(again)).toBeFalsy();
    expect(evalRequests().filter((r) => r.path === '/api/v1/evals/scorers')).toHaveLength(0);
    expect(evalRequests()[0]).toMatchObject({
      method: 'GET',
      path: `/api/v1/evals/scorers/${judgeId}`,
      status: 200,
    });
  });

  it('refuses a run over the work-unit limit before any request, saying how to split it', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ input: `question ${i + 1}` }));
    const result = await h.call('eval_run', { rows: many, candidates, scorers: ['contains', 'llm_judge'] });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain(
      'it needs 240 work units (40 rows x 2 candidates x 3, scorers + 1); the limit is 100',
    );
    expect(text).toContain(
      'a run takes at most 16 rows: split the 40 rows into 3 runs (rows 1-16, 17-32, 33-40)',
    );
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('refuses too many candidates, scorers or rows, and bad candidates and scorers, before any request', async () => {
    const six = Array.from({ length: 6 }, () => ({ model: 'openai/gpt-sandbox-mini' }));
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { rows, candidates: six },
        /at most 5 candidates; this one has 6[\s\S]*Split the candidates over 2 runs/,
      ],
      [
        { rows, candidates, scorers: Array.from({ length: 11 }, (_, i) => `s${i}`) },
        /at most 10 scorers; this one has 11/,
      ],
      [
        { rows: Array.from({ length: 101 }, () => ({ input: 'x' })), candidates: candidates.slice(0, 1) },
        /it has 101 rows; the limit is 100[\s\S]*into 2 runs \(rows 1-100, 101\)/,
      ],
      [
        { rows, candidates: [{ model: 'm', prompt: 'no placeholder' }] },
        /`candidates\[0\].prompt` must contain \{\{input\}\}/,
      ],
      [{ rows, candidates: [{ model: 'm', prompt: '{{input}} {{context}}' }] }, /no other placeholder/],
      [{ rows, candidates: [] }, /`candidates` is empty/],
      [
        { rows, candidates, scorers: ['contains', { scorer_type: 'regex', config: { pattern: '[' } }] },
        /`scorers\[1\].config.pattern`/,
      ],
      [{ rows, candidates, scorers: [{ type: 'contains' }] }, /`scorers\[0\]/],
      [{ rows, candidates, scorers: ['contains', 'contains'] }, /`scorers\[1\]` repeats an earlier scorer/],
      [{ candidates }, /Give `rows` or `dataset_version_id`/],
      [{ rows, dataset_version_id: 'evaldsver_1', candidates }, /one of the two/],
      [{ rows: [{ question: 'x' }], candidates }, /`rows\[0\]`: "question" is not a row field/],
      [{ rows, candidates, settings: { redaction: 3 } }, /`settings.redaction` is a boolean or a mode name/],
    ];
    for (const [args, pattern] of cases) {
      const result = await h.call('eval_run', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toMatch(pattern);
    }
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('reports the failed scores of a run whose judge fails partway', async () => {
    const fault = await fetch(`${h.sandbox.url}/__sandbox/evals/judge-faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ after: 1, times: 2, message: 'judge timed out' }),
    });
    expect(fault.status).toBe(201);
    const result = await h.call('eval_run', { rows, candidates, scorers: ['contains', 'llm_judge'] });
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o).toMatchObject({ status: 'completed', progress: 'traces 6/6, scores 12/12 (2 failed)' });
    // Judge calls run row by row, candidate by candidate: the 2nd and 3rd fail.
    const judged = o.table.filter((t: Out) => t.scorer === 'llm_judge');
    expect(judged.map((t: Out) => [t.candidate, t.count, t.failures])).toEqual([
      ['openai/gpt-sandbox-mini', 2, 1],
      ['anthropic/claude-sandbox', 2, 1],
    ]);
    expect(o.table.filter((t: Out) => t.scorer === 'contains').every((t: Out) => t.failures === 0)).toBe(
      true,
    );
    expect(o.worst.slice(0, 2)).toEqual([
      expect.stringMatching(
        /^row 1, anthropic\/claude-sandbox, llm_judge: failed: judge timed out \| input: /,
      ),
      expect.stringMatching(
        /^row 2, openai\/gpt-sandbox-mini, llm_judge: failed: judge timed out \| input: /,
      ),
    ]);
    expect(textOf(result)).toContain('| anthropic/claude-sandbox | llm_judge |');
  });
});

describe('eval_run waits within a deadline', () => {
  let clock = Date.UTC(2026, 1, 2, 9, 0, 0);
  let slow: Harness;
  beforeAll(async () => {
    // The sandbox clock stands still until the test moves it, so the run is still queued at the deadline.
    slow = await startHarness({
      config: { toolsets: 'evals' },
      sandbox: { now: () => clock, timing: { evalQueueMs: 1_000, evalStepMs: 100, pollHintMs: 50 } },
    });
  });
  afterAll(async () => {
    await slow.close();
  });

  it('returns the experiment id and the next call, and evals_read experiments.get then gives the table', async () => {
    const result = await slow.call('eval_run', {
      rows: rows.slice(0, 2),
      candidates: candidates.slice(0, 1),
      scorers: ['exact_match'],
      max_wait_s: 0.3,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o).toEqual({
      experiment_id: expect.stringMatching(/^evalexp_/),
      status: 'queued',
      progress: 'queued, 2 traces and 2 scores to run',
      next: `evals_read with operation "experiments.get", id "${o.experiment_id}"`,
    });
    expect(textOf(result)).toContain(`Still running. Next: call ${o.next}.`);
    const polls = slow.sandbox.requests.filter((r) => r.path === `${EXPERIMENTS}/${o.experiment_id}`);
    expect(polls.length).toBeGreaterThan(1);
    const job = JSON.parse(
      resourceText((await slow.client.readResource({ uri: `orbit://jobs/${o.experiment_id}` })).contents[0]),
    );
    // The record carries the next call as data (the tool's output, as text).
    expect(job).toMatchObject({
      id: o.experiment_id,
      kind: 'evaluation',
      next: { tool: 'evals_read', arguments: { operation: 'experiments.get', id: o.experiment_id } },
    });

    const still = out(
      await slow.call('evals_read', { operation: 'experiments.get', id: o.experiment_id }),
    ).data;
    expect(still).toMatchObject({ status: 'queued', next: o.next });
    expect(still.table).toBeUndefined();

    clock += 60_000;
    const done = await slow.call('evals_read', { operation: 'experiments.get', id: o.experiment_id });
    expect(done.isError, textOf(done)).toBeFalsy();
    const data = out(done).data;
    expect(data).toMatchObject({
      experiment_id: o.experiment_id,
      status: 'completed',
      progress: 'traces 2/2, scores 2/2',
      table: [
        {
          candidate: 'openai/gpt-sandbox-mini',
          scorer: 'exact_match',
          mean: 0,
          pass_rate: 0,
          count: 2,
          failures: 0,
        },
      ],
      experiment: { id: o.experiment_id, status: 'completed' },
    });
    expect(data.cost_usd).toBeGreaterThan(0);
    expect(data.next).toBeUndefined();
    expect(textOf(done)).toContain('| openai/gpt-sandbox-mini | exact_match | 0 | 0% | 2 | 0 |');
  });

  it('reports a run the platform stopped, with its error and what it cost', async () => {
    const key = slow.sandbox.state.createKey({ balance: 1 });
    const account = slow.sandbox.state.getKey(key)!.account.id;
    const payer = await startHarness({
      sharedSandbox: slow.sandbox,
      credentials: [{ kind: 'api_key', value: key, source: 'env' }],
      config: { toolsets: 'evals' },
    });
    try {
      let drained = false;
      const result = await payer.call(
        'eval_run',
        { rows, candidates: candidates.slice(0, 1), scorers: ['contains'] },
        {
          // While it is queued, the account is emptied (another key of it spends it all) and time passes.
          onprogress: (p) => {
            if (drained || !p.message?.startsWith('queued')) return;
            drained = true;
            slow.sandbox.state.createKey({ account, balance: 0 });
            clock += 60_000;
          },
        },
      );
      expect(result.isError, textOf(result)).toBeFalsy();
      const o = out(result);
      expect(o).toMatchObject({
        status: 'failed',
        progress: 'traces 1/3, scores 0/3 (1 failed)',
        error: expect.stringMatching(/\(insufficient_balance\)$/),
        cost_usd: 0,
        table: [{ candidate: 'openai/gpt-sandbox-mini', scorer: 'contains', count: 0, failures: 0 }],
      });
      expect(textOf(result)).toMatch(/: failed \(traces 1\/3[\s\S]*Error: .*insufficient_balance/);
      const job = JSON.parse(
        resourceText(
          (await payer.client.readResource({ uri: `orbit://jobs/${o.experiment_id}` })).contents[0],
        ),
      );
      expect(job).toMatchObject({ status: 'failed', error: o.error });
    } finally {
      await payer.close();
    }
  });
});
