import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { fetchModel, ModelKind } from './shared.js';

export default defineTool({
  name: 'models_get',
  title: 'Get a model',
  description:
    "One model's details by id: cost per million tokens or per image, context window, providers, parameters it accepts. Find ids, compare: models_list.",
  toolset: 'models',
  credential: 'optional',
  input: z.object({
    id: z.string().min(1),
    kind: ModelKind.default('text'),
  }),
  output: z.object({
    id: z.string(),
    kind: ModelKind,
    model: z.looseObject({ id: z.string() }),
    providers: z.unknown().optional(),
    endpoints: z.unknown().optional(),
  }),
  nature: 'read',
  async run(args, { api }) {
    const found = await fetchModel(api, args.kind, args.id);
    if (!found) {
      throw new InputError(`No ${args.kind} model has the id "${args.id}".`, {
        fix: `Call models_list with kind "${args.kind}" to see valid ids.`,
      });
    }
    return { id: args.id, kind: args.kind, ...found };
  },
});
