/**
 * Deferred charges (issue 23, findings 2 and 3): a background chat response and an eval run
 * handed back before they end keep what they reserved; the reader that learns the cost
 * (job_status, evals_read) settles it, once, and usage_get shows reserved until then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: { maxSpendUsd: '1', toolsets: 'all' },
    sandbox: { timing: { evalQueueMs: 100, evalStepMs: 50, pollHintMs: 50 } },
  });
});
afterAll(async () => {
  await h.close();
});

const budget = async () => out(await h.call('usage_get', {})).budget as Record<string, number>;
const background = (prompt: string) =>
  h.call('chat', { model: 'openai/gpt-sandbox', format: 'responses', prompt, background: 0 });

describe('deferred charges', () => {
  it('background chat responses: reserved while running, refused past the budget, settled by job_status (finding 2)', async () => {
    const started = await Promise.all([1, 2, 3, 4].map((i) => background(`later ${i}`)));
    for (const r of started) expect(r.isError, textOf(r)).toBeFalsy();
    // Each reserves what the model's pricing allows for its size (up to 16,384 output tokens at 10 USD
    // per million, with a margin): about 0.21 USD, so four hold most of the budget and a fifth is refused unsent.
    const held = await budget();
    expect(held.spent_usd).toBe(0);
    expect(held.reserved_usd).toBeGreaterThan(0.8);
    // A fifth no longer fits its worst case: the budget sends the max_tokens that what is left pays for.
    const fifth = await background('one more');
    expect(textOf(fifth)).toMatch(
      /The spend budget sent max_tokens \d+: what its 0\.1\d+ USD left pays for \(16384 output tokens would reserve 0\.205\d* USD\)/,
    );
    expect(out(fifth).shaped_by_budget.max_tokens).toBeLessThan(16384);
    const sent = h.sandbox.requests.filter((r) => r.path === '/api/v1/responses').at(-1);
    expect(sent?.json).toMatchObject({ max_output_tokens: out(fifth).shaped_by_budget.max_tokens });
    // Then what is left buys no useful answer: refused unsent, naming what is left.
    const sixth = await background('and one more');
    expect(textOf(sixth)).toMatch(
      /budget_exceeded\).*0 USD spent and 0\.9\d+ USD reserved of 1 USD.*openai\/gpt-sandbox at 2\.5\/10 USD per million input\/output tokens, up to \d+ input and 64 output tokens[\s\S]*Fix: Nothing was sent\. 0\.0\d+ USD left pays for fewer than 64 output tokens \(max_tokens\) of openai\/gpt-sandbox/,
    );
    started.push(fifth);
    let charged = 0;
    for (const r of started) {
      const done = await h.call('job_status', { run_id: out(r).response_id, max_wait_s: 30 });
      expect(out(done).status, textOf(done)).toBe('completed');
      charged += out(done).cost;
      // Read again: counted once.
      await h.call('job_status', { run_id: out(r).response_id });
    }
    expect(charged).toBeGreaterThan(0);
    const after = await budget();
    expect(after.reserved_usd).toBe(0);
    expect(after.spent_usd).toBeCloseTo(charged, 6);
  });

  it('an eval run handed back at once: reserved, then settled to its cost by evals_read (finding 3)', async () => {
    const before = (await budget()).spent_usd;
    const run = await h.call('eval_run', {
      rows: [{ input: 'Name the largest planet', expected_output: 'Jupiter' }],
      candidates: [{ model: 'openai/gpt-sandbox-mini' }],
      scorers: ['exact_match'],
      max_wait_s: 0,
    });
    expect(run.isError, textOf(run)).toBeFalsy();
    const id = out(run).experiment_id;
    expect(out(run).next).toBeDefined();
    expect((await budget()).reserved_usd).toBeGreaterThan(0);
    let read = out(await h.call('evals_read', { operation: 'experiments.get', id }));
    for (let i = 0; i < 100 && read.data.next; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      read = out(await h.call('evals_read', { operation: 'experiments.get', id }));
    }
    expect(read.data.cost_usd).toBeGreaterThan(0);
    const after = await budget();
    expect(after.reserved_usd).toBe(0);
    expect(after.spent_usd).toBeCloseTo(before + read.data.cost_usd, 6);
  });

  it('an async speech job whose ticket states its cost counts it at once, and job_status adds nothing', async () => {
    const before = await budget();
    const first = await h.call('speech_generate', {
      text: 'A long narration. '.repeat(20),
      model: 'tts-studio',
      max_wait_s: 0,
    });
    expect(out(first).status, textOf(first)).toBe('pending');
    expect(out(first).cost).toBeGreaterThan(0);
    const submitted = await budget();
    expect(submitted.spent_usd).toBeCloseTo(before.spent_usd + out(first).cost, 6);
    expect(submitted.reserved_usd).toBe(before.reserved_usd);
    const done = await h.call('job_status', { run_id: out(first).run_id, max_wait_s: 30 });
    expect(out(done).status).toBe('completed');
    expect(await budget()).toMatchObject({
      spent_usd: submitted.spent_usd,
      reserved_usd: submitted.reserved_usd,
    });
  });
});
