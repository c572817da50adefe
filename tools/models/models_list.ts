import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { fetchCatalog, ModelKind, summarize } from './shared.js';

export default defineTool({
  name: 'models_list',
  title: 'List models',
  description:
    'Find a model id: list available models (LLMs for chat; image, video, audio, embedding); prices with detailed. One model: models_get.',
  toolset: 'models',
  alwaysLoad: true,
  credential: 'optional',
  input: z.object({
    kind: ModelKind.default('text'),
    scope: z.enum(['all', 'subscription', 'paid']).default('all'),
    detailed: z.boolean().default(false).describe('add names, context, pricing'),
    sort: z.enum(['favorites', 'mostused']).optional(),
    filter: z.string().optional().describe('id or name substring'),
    limit: z.number().int().min(1).max(500).default(100),
  }),
  output: z.object({
    kind: ModelKind,
    total: z.number().int(),
    models: z.array(z.looseObject({ id: z.string() })),
  }),
  nature: 'read',
  async run(args, { api }) {
    const all = await fetchCatalog(api, args.kind, args);
    const needle = args.filter?.toLowerCase();
    const matching = needle
      ? all.filter((m) => m.id.toLowerCase().includes(needle) || m.name?.toLowerCase().includes(needle))
      : all;
    const detailed = args.detailed || args.kind !== 'text';
    return {
      kind: args.kind,
      total: matching.length,
      models: matching.slice(0, args.limit).map((m) => (detailed ? summarize(m) : { id: m.id })),
    };
  },
  text: (result) =>
    `${result.total} ${result.kind} models${result.models.length < result.total ? ` (showing ${result.models.length})` : ''}: ${result.models.map((m) => m.id).join(', ')}`,
});
