import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import {
  defineTool,
  LONG_RESULT_CHARS,
  type OperationSpec,
  type ToolContext,
} from '../../src/mcp/define-tool.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { getExperiment, RunOut, runResult } from './experiment.js';
import { Dataset, DatasetVersion, ListOf, Project, Scorer } from './replies.js';
import { evalsPath, needId, Out } from './shared.js';
import { outputItems, summaryText } from './summary.js';

/** Lists and single objects are shown whole, except rows: a dataset shows its first rows only. */
const MAX_ROWS_SHOWN = 100;
const PAGE = 20;

type Args = { operation: string; id?: string; after?: string };
type Read = (ctx: ToolContext, args: Args) => Promise<unknown>;

const get = async <S extends z.ZodType>(
  ctx: ToolContext,
  path: string,
  schema: S,
  query?: Record<string, string | number | undefined>,
) => (await ctx.api.request({ method: 'GET', path, schema, query })).data;

const READS = {
  // Each project read on its own: one that cannot be used is left out and named.
  'projects.list': async (ctx) => {
    const list = await get(ctx, evalsPath('projects'), ListOf(z.unknown()));
    const projects = usableList(Project, list.data);
    const notUsable = leftOutNote('project', projects.left_out);
    return { ...list, data: projects.items, ...(notUsable ? { not_usable: notUsable } : {}) };
  },
  'projects.get': (ctx, a) => get(ctx, evalsPath('projects', needId(a)), Project),
  // Each dataset read on its own: one that cannot be used is left out and named.
  'datasets.list': async (ctx) => {
    const list = await get(ctx, evalsPath('datasets'), ListOf(z.unknown()));
    const datasets = usableList(Dataset, list.data);
    const notUsable = leftOutNote('dataset', datasets.left_out);
    return { ...list, data: datasets.items, ...(notUsable ? { not_usable: notUsable } : {}) };
  },
  'datasets.get': async (ctx, a) => {
    const dataset = await get(ctx, evalsPath('datasets', needId(a)), Dataset);
    const items = dataset.items ?? [];
    if (items.length <= MAX_ROWS_SHOWN) return dataset;
    return {
      ...dataset,
      items: items.slice(0, MAX_ROWS_SHOWN),
      items_not_shown: items.length - MAX_ROWS_SHOWN,
    };
  },
  // Versions are frozen copies of the rows: their counts are shown, not every row again.
  'datasets.versions': async (ctx, a) => {
    const list = await get(ctx, evalsPath('datasets', needId(a), 'versions'), ListOf(z.unknown()));
    // Each version read on its own: one that cannot be used is left out and named.
    const versions = usableList(DatasetVersion, list.data);
    const notUsable = leftOutNote('version', versions.left_out);
    return {
      ...list,
      data: versions.items.map(({ items, ...version }) => ({ item_count: items?.length, ...version })),
      ...(notUsable ? { not_usable: notUsable } : {}),
    };
  },
  // Each scorer read on its own: one that cannot be used is left out and named.
  'scorers.list': async (ctx) => {
    const list = await get(ctx, evalsPath('scorers'), ListOf(z.unknown()));
    const scorers = usableList(Scorer, list.data);
    const notUsable = leftOutNote('scorer', scorers.left_out);
    return { ...list, data: scorers.items, ...(notUsable ? { not_usable: notUsable } : {}) };
  },
  'scorers.get': (ctx, a) => get(ctx, evalsPath('scorers', needId(a)), Scorer),
  'experiments.get': async (ctx, a) => {
    const { exp } = await getExperiment(ctx, needId(a));
    return { ...(await runResult(ctx, exp)), experiment: exp };
  },
  // Output items carry their rows, answers and traces: 20 at a time keeps a result readable. The
  // route takes no `limit` (issue 32), so the list is read whole and shown from `after` on.
  'experiments.output_items': async (ctx, a) => {
    const all = await outputItems(ctx, needId(a));
    const from = a.after === undefined ? 0 : all.items.findIndex((item) => item.id === a.after) + 1;
    if (from === 0 && a.after !== undefined) {
      throw new InputError(`No output item "${a.after}" in this experiment.`, {
        param: 'after',
        fix: 'Pass the last_id of the previous page, or leave after out for the first.',
      });
    }
    const shown = all.items.slice(from, from + PAGE);
    const notUsable = leftOutNote('output item', all.left_out);
    return {
      data: shown,
      has_more: from + PAGE < all.items.length,
      last_id: shown.at(-1)?.id ?? null,
      ...(notUsable ? { not_usable: notUsable } : {}),
    };
  },
} satisfies Record<string, Read>;

type Operation = keyof typeof READS;
const OPERATIONS = Object.keys(READS) as [Operation, ...Operation[]];
const read: OperationSpec = { nature: 'read', credential: 'api_key' };

export default defineTool({
  name: 'evals_read',
  title: 'Read evaluations',
  description:
    'Read evaluations: eval projects, test datasets, versions, scorers, experiment results and scores, output items (worst answers). Run one: eval_run.',
  toolset: 'evals',
  resultChars: LONG_RESULT_CHARS,
  view: 'scores',
  operations: Object.fromEntries(OPERATIONS.map((op) => [op, read])),
  input: z.object({
    operation: z.enum(OPERATIONS),
    id: z.string().optional(),
    after: z.string().optional(),
  }),
  output: Out,
  async run(args, ctx) {
    return { operation: args.operation, data: await READS[args.operation](ctx, args) };
  },
  // An experiment reads best as eval_run shows it: its table; everything else as JSON.
  text: (r) => {
    const run = r.operation === 'experiments.get' ? RunOut.safeParse(r.data) : undefined;
    return run?.success ? summaryText(run.data) : JSON.stringify(r);
  },
});
