import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({
  config: { toolsets: 'evals' },
  sandbox: { timing: { evalQueueMs: 0, evalStepMs: 0, pollHintMs: 10 } },
});

describe('eval_run', () => {
  it('runs one row on one candidate and returns the score table', async () => {
    expect(
      await t.snap(
        'eval_run',
        {
          rows: [{ input: 'What is the capital of France?', expected_output: 'France' }],
          candidates: [{ model: 'openai/gpt-sandbox-mini' }],
          scorers: ['contains'],
        },
        { polls: 'once' },
      ),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Experiment evalexp_000001: completed (traces 1/1, scores 1/1), cost 0.000029 USD
      | candidate | scorer | mean | pass rate | scored | failed |
      |---|---|---|---|---|---|
      | openai/gpt-sandbox-mini | contains | 1 | 100% | 1 | 0 |",
              "type": "text",
            },
          ],
          "structuredContent": {
            "cost_usd": 0.000029,
            "experiment_id": "evalexp_000001",
            "progress": "traces 1/1, scores 1/1",
            "status": "completed",
            "table": [
              {
                "candidate": "openai/gpt-sandbox-mini",
                "count": 1,
                "failures": 0,
                "mean": 1,
                "pass_rate": 1,
                "scorer": "contains",
              },
            ],
          },
        },
        "sent": [
          {
            "body": {
              "candidates": [
                {
                  "id": "c1",
                  "model": "openai/gpt-sandbox-mini",
                  "name": "openai/gpt-sandbox-mini",
                },
              ],
              "items": [
                {
                  "expected_output": "France",
                  "input": "What is the capital of France?",
                },
              ],
              "scorer_ids": [
                "contains",
              ],
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/evals/experiments",
            "status": 201,
          },
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/evals/experiments/evalexp_000001",
            "status": 200,
          },
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/evals/experiments/evalexp_000001/output_items",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('refuses a scorer given twice, before sending', async () => {
    expect(
      await t.snap('eval_run', {
        rows: [{ input: 'x', expected_output: 'y' }],
        candidates: [{ model: 'openai/gpt-sandbox-mini' }],
        scorers: ['contains', 'contains'],
      }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): \`scorers[1]\` repeats an earlier scorer.
      Fix: List each scorer once.",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [],
      }
    `);
  });
});
