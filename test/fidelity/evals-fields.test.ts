import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 25: spec 2 §4.11 bodies carry `description` (projects, datasets, scorers) and an
// experiment's `name`; the tools send them.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: { toolsets: 'evals' },
    sandbox: { timing: { evalQueueMs: 20, evalStepMs: 10, pollHintMs: 20 } },
  });
});
afterAll(async () => {
  await h.close();
});

const sent = (method: string, path: string) =>
  h.sandbox.requests.filter((r) => r.method === method && r.path === path).at(-1)?.json as Record<
    string,
    unknown
  >;

describe('evaluation descriptions and names', () => {
  it('projects, datasets and scorers take a description', async () => {
    const project = await h.call('evals_write', {
      operation: 'projects.create',
      name: 'P',
      description: 'About P',
    });
    expect(project.isError, textOf(project)).toBeFalsy();
    expect(sent('POST', '/api/v1/evals/projects')).toMatchObject({ name: 'P', description: 'About P' });
    const id = out(project).data.id;
    await h.call('evals_write', { operation: 'projects.update', id, description: 'Now about Q' });
    expect(sent('PATCH', `/api/v1/evals/projects/${id}`)).toEqual({ description: 'Now about Q' });
    await h.call('evals_write', {
      operation: 'datasets.create',
      name: 'D',
      description: 'Rows',
      rows: [{ input: 'x' }],
    });
    expect(sent('POST', '/api/v1/evals/datasets')).toMatchObject({ description: 'Rows' });
    await h.call('evals_write', {
      operation: 'scorers.create',
      name: 'S',
      description: 'Exact',
      scorer_type: 'exact_match',
    });
    expect(sent('POST', '/api/v1/evals/scorers')).toMatchObject({ name: 'S', description: 'Exact' });
  });

  it('eval_run names its experiment', async () => {
    const result = await h.call('eval_run', {
      name: 'capitals v2',
      rows: [{ input: 'Capital of France?', expected_output: 'Paris' }],
      candidates: [{ model: 'openai/gpt-sandbox-mini' }],
      scorers: ['contains'],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sent('POST', '/api/v1/evals/experiments')).toMatchObject({ name: 'capitals v2' });
  });
});
