import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool, type OperationSpec, type ToolContext } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import type { HttpMethod } from '../../src/upstream/outgoing.js';
import { Dataset, DatasetVersion, Deleted, Project, Scorer } from './replies.js';
import { Rows, readRows } from './rows.js';
import { parseScorerDef, SCORER_TYPES, scorerBody } from './scorer-def.js';
import { AnyObject, checkSettings, evalsPath, needId, Out } from './shared.js';

/** Custom dataset ids (spec 2 §2.7): `evaldataset_` then 6..80 letters, digits, underscores or dashes. */
const CUSTOM_DATASET_ID = /^evaldataset_[A-Za-z0-9_-]{6,80}$/;

const Input = z.object({
  operation: z.enum([
    'projects.create',
    'projects.update',
    'projects.delete',
    'datasets.create',
    'datasets.delete',
    'datasets.freeze',
    'scorers.create',
    'scorers.delete',
  ]),
  id: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  settings: AnyObject().optional().describe('store_content, redaction'),
  rows: Rows.optional(),
  // The seven types go as a plain list (an enum costs more tokens); parseScorerDef checks them.
  scorer_type: z.string().optional().describe(SCORER_TYPES.join(' ')),
  config: AnyObject().optional(),
  prompt: z.string().optional(),
  judge_model: z.string().optional(),
});
type Args = z.infer<typeof Input>;
type Operation = Args['operation'];

interface Write {
  spec: OperationSpec;
  /** Arguments the operation uses besides operation; any other is refused, not dropped. */
  takes: (keyof Args)[];
  call(ctx: ToolContext, args: Args): Promise<unknown>;
}

const send = async <S extends z.ZodType>(
  ctx: ToolContext,
  method: HttpMethod,
  path: string,
  schema: S,
  body?: object,
) => (await ctx.api.request({ method, path, schema, body })).data;

const defined = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

function required<T>(value: T | undefined, param: keyof Args, operation: Operation, fix: string): T {
  if (value === undefined || (typeof value === 'string' && !value.trim()))
    throw new InputError(`\`${param}\` is required for ${operation}.`, { param, fix });
  return value;
}

const write = (nature: OperationSpec['nature'], idempotent = false): OperationSpec => ({
  nature,
  credential: 'api_key',
  idempotent,
});

const remove = (entity: string): Write => ({
  spec: write('delete', true),
  takes: ['id'],
  call: (ctx, a) => send(ctx, 'DELETE', evalsPath(entity, needId(a)), Deleted),
});

const WRITES: Record<Operation, Write> = {
  'projects.create': {
    spec: write('write'),
    takes: ['name', 'description', 'settings'],
    call: (ctx, a) => {
      const name = required(a.name, 'name', a.operation, 'Name the project.');
      checkSettings(a.settings);
      const body = defined({ name, description: a.description, settings: a.settings });
      return send(ctx, 'POST', evalsPath('projects'), Project, body);
    },
  },
  'projects.update': {
    spec: write('write', true),
    takes: ['id', 'name', 'description', 'settings'],
    call: (ctx, a) => {
      checkSettings(a.settings);
      const body = defined({ name: a.name, description: a.description, settings: a.settings });
      if (!Object.keys(body).length)
        throw new InputError('Nothing to change.', {
          param: 'name',
          fix: 'Pass name, description or settings.',
        });
      return send(ctx, 'PATCH', evalsPath('projects', needId(a)), Project, body);
    },
  },
  'projects.delete': remove('projects'),
  'datasets.create': {
    spec: write('write'),
    takes: ['id', 'name', 'description', 'rows'],
    call: async (ctx, a) => {
      if (a.id !== undefined && !CUSTOM_DATASET_ID.test(a.id)) {
        throw new InputError(`\`id\` "${a.id}" is not a valid custom dataset id.`, {
          param: 'id',
          fix: 'Use evaldataset_ followed by 6 to 80 letters, digits, _ or -, e.g. evaldataset_capitals_v1; or leave id out.',
        });
      }
      const name = required(a.name, 'name', a.operation, 'Name the dataset.');
      const items = a.rows === undefined ? undefined : await readRows(ctx, a.rows);
      const body = defined({ id: a.id, name, description: a.description, items });
      return send(ctx, 'POST', evalsPath('datasets'), Dataset, body);
    },
  },
  'datasets.delete': remove('datasets'),
  'datasets.freeze': {
    spec: write('write'),
    takes: ['id'],
    call: async (ctx, a) => {
      const path = evalsPath('datasets', needId(a), 'versions');
      // A version is a frozen copy of the rows datasets.get already shows: its count is enough here.
      const { items, ...version } = await send(ctx, 'POST', path, DatasetVersion);
      return { item_count: items?.length, ...version };
    },
  },
  'scorers.create': {
    spec: write('write'),
    takes: ['id', 'name', 'description', 'scorer_type', 'config', 'prompt', 'judge_model'],
    call: (ctx, a) => {
      const scorer_type = required(
        a.scorer_type,
        'scorer_type',
        a.operation,
        `One of ${SCORER_TYPES.join(', ')}.`,
      );
      const given = { scorer_type, config: a.config, prompt: a.prompt, judge_model: a.judge_model };
      const def = parseScorerDef(defined(given), '');
      const body = defined({ id: a.id, name: a.name, description: a.description, ...scorerBody(def) });
      return send(ctx, 'POST', evalsPath('scorers'), Scorer, body);
    },
  },
  'scorers.delete': remove('scorers'),
};

const FIELDS = [
  'id',
  'name',
  'description',
  'settings',
  'rows',
  'scorer_type',
  'config',
  'prompt',
  'judge_model',
] as const;

export default defineTool({
  name: 'evals_write',
  title: 'Change evaluations',
  description:
    'Create, update or delete an eval project, test dataset (rows inline or .jsonl/.csv; freeze a dataset version) or scorer (json, regex, LLM judge).',
  toolset: 'evals',
  operations: Object.fromEntries(Object.entries(WRITES).map(([op, w]) => [op, w.spec])),
  input: Input,
  output: Out,
  check: (a) =>
    a.operation === 'datasets.freeze'
      ? nextCall('evals_read', { operation: 'datasets.versions', id: a.id })
      : nextCall('evals_read', { operation: `${a.operation.split('.')[0]}.list` }),
  async run(args, ctx) {
    const write = WRITES[args.operation];
    const stray = FIELDS.find((field) => args[field] !== undefined && !write.takes.includes(field));
    if (stray) {
      throw new InputError(`\`${stray}\` does not apply to ${args.operation}.`, {
        param: stray,
        fix: `${args.operation} takes ${write.takes.join(', ')}.`,
      });
    }
    return { operation: args.operation, data: await write.call(ctx, args) };
  },
});
