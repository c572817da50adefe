import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { followJob, jobDone } from '../../src/jobs/follow.js';
import { defineTool, type ToolContext } from '../../src/mcp/define-tool.js';
import { nextCall, sayNext } from '../../src/next-call.js';
import { getExperiment, nextRead, RunOut, runResult } from './experiment.js';
import { evalPrice } from './price.js';
import { EVALS, Experiment, TERMINAL } from './replies.js';
import { readRows } from './rows.js';
import { checkRunLimits } from './run-limits.js';
import { ensureInlineScorer, inlineScorerId, parseScorerDef, placeholdersIn } from './scorer-def.js';
import { AnyObject, checkSettings } from './shared.js';
import { fractionDone, progressLine, summaryText } from './summary.js';

const Candidate = z.object({
  model: z.string(),
  system: z.string().optional(),
  prompt: z.string().optional().describe('with {{input}}'),
});

const Input = z.object({
  rows: z.array(AnyObject()).optional().describe('[{input, expected_output?}]'),
  dataset_version_id: z.string().optional(),
  candidates: z.array(Candidate),
  scorers: z.array(z.unknown()).optional().describe('ids or {scorer_type, config, prompt}'),
  project_id: z.string().optional(),
  name: z.string().optional(),
  settings: AnyObject().optional().describe('store_content, redaction'),
  max_wait_s: z.number().default(50),
});
type Input = z.infer<typeof Input>;

/** Every check that needs no request: rows, candidates, scorers, the §8 limits. */
async function checked(ctx: ToolContext, args: Input) {
  if ((args.rows === undefined) === (args.dataset_version_id === undefined)) {
    throw new InputError('Give `rows` or `dataset_version_id`, one of the two.', {
      param: 'rows',
      fix: 'Pass rows: [{"input": ..., "expected_output": ...}], or a dataset_version_id (evals_write datasets.create, from a .jsonl/.csv file if you like, then datasets.freeze).',
    });
  }
  if (args.candidates.length === 0) {
    throw new InputError('`candidates` is empty.', {
      param: 'candidates',
      fix: 'Give 1 to 5 candidates: [{"model": "..."}] (ids from models_list).',
    });
  }
  args.candidates.forEach((c, i) => {
    if (!c.model.trim())
      throw new InputError(`\`candidates[${i}].model\` is empty.`, {
        param: `candidates[${i}].model`,
        fix: 'Name a text model (models_list).',
      });
    const used = c.prompt === undefined ? ['input'] : placeholdersIn(c.prompt);
    if (!used.includes('input') || used.length > 1) {
      throw new InputError(`\`candidates[${i}].prompt\` must contain {{input}} and no other placeholder.`, {
        param: `candidates[${i}].prompt`,
        fix: 'Write the prompt around {{input}}, e.g. "Answer briefly: {{input}}", or leave it out to send the input as it is.',
      });
    }
  });
  const scorers = args.scorers ?? [];
  const defs = scorers.map((s, i) =>
    typeof s === 'string' ? undefined : parseScorerDef(s, `scorers[${i}]`),
  );
  const scorerIds = scorers.map((s, i) => (typeof s === 'string' ? s : inlineScorerId(defs[i]!)));
  const twice = scorerIds.findIndex((id, i) => scorerIds.indexOf(id) !== i);
  if (twice >= 0) {
    throw new InputError(`\`scorers[${twice}]\` repeats an earlier scorer.`, {
      param: `scorers[${twice}]`,
      fix: 'List each scorer once.',
    });
  }
  checkSettings(args.settings);
  const rows = args.rows === undefined ? undefined : await readRows(ctx, args.rows);
  checkRunLimits(rows?.length, args.candidates.length, scorerIds.length);
  return { rows, scorerIds, defs: defs.filter((d) => d !== undefined) };
}

export default defineTool({
  name: 'eval_run',
  title: 'Run an evaluation',
  description:
    'Run an evaluation: compare or benchmark 1-5 models or prompts on test questions, scoring answers: scores, cost, worst items; past max_wait_s the experiment id.',
  toolset: 'evals',
  long: 'job',
  view: 'scores',
  credential: 'api_key',
  nature: 'spend',
  check: () => nextCall('usage_get'),
  input: Input,
  output: RunOut,
  async run(args, ctx) {
    const { rows, scorerIds, defs } = await checked(ctx, args);
    // Inline definitions become scorers first (an existing one with the same definition is reused).
    for (const def of defs) await ensureInlineScorer(ctx, def);
    const body = {
      ...(args.name ? { name: args.name } : {}),
      ...(args.project_id ? { project_id: args.project_id } : {}),
      ...(rows ? { items: rows } : { dataset_version_id: args.dataset_version_id }),
      candidates: args.candidates.map((c, i) => ({ id: `c${i + 1}`, name: c.model, ...c })),
      scorer_ids: scorerIds,
      ...(args.settings ? { settings: args.settings } : {}),
    };
    const created = (
      await ctx.api.request({ method: 'POST', path: `${EVALS}/experiments`, body, schema: Experiment })
    ).data;
    const id = created.id;
    const p = created.progress;
    const outcome = await followJob<z.infer<typeof Experiment>>(ctx, {
      id,
      kind: 'evaluation',
      next: nextRead(id),
      maxWaitS: args.max_wait_s,
      startMessage: `experiment ${id}: ${p?.total_items ?? '?'} rows x ${args.candidates.length} candidates x ${scorerIds.length} scorers`,
      poll: async () => {
        const { exp, retryAfterMs } = await getExperiment(ctx, id);
        if (TERMINAL.has(exp.status)) return { done: true, value: exp };
        return {
          done: false,
          state: exp.status === 'queued' ? 'queued' : 'running',
          status: exp.status,
          message: progressLine(exp),
          fraction: fractionDone(exp),
          retryAfterMs,
        };
      },
    });
    if (!outcome.done) {
      const last = outcome.last;
      return {
        experiment_id: id,
        status: last?.status ?? created.status,
        progress: last?.message ?? progressLine(created),
        next: sayNext(nextRead(id)),
      };
    }
    ctx.progress.report(`experiment ${outcome.value.status}; reading the scores`, 1);
    const result = await runResult(ctx, outcome.value);
    jobDone(ctx, {
      id,
      kind: 'evaluation',
      status: result.status,
      message: result.progress,
      ...(result.error ? { error: result.error } : {}),
      ...(result.cost_usd !== undefined ? { cost: { usd: result.cost_usd } } : {}),
      result: { table: result.table },
    });
    return result;
  },
  cost: {
    // Counted from its rows, candidates and scorers before it starts (the checks first: a bad
    // argument is refused as such, not as a price).
    price: async (args, ctx) => {
      await checked(ctx, args);
      return evalPrice(ctx, args);
    },
    spent: (r) => r.cost_usd,
    // An experiment still running: what was reserved stays, until evals_read learns its cost.
    deferred: (r) => (r.next ? { jobId: r.experiment_id } : undefined),
  },
  text: summaryText,
});
