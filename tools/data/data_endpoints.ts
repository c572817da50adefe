import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { CATEGORIES, dataCatalog } from './shared.js';

export default defineTool({
  name: 'data_endpoints',
  title: 'Data API catalog',
  description:
    'Data sources to query (data API catalog): scrapers, maps, places, social profiles, contacts, email, company data; fields, cost. Call one: data_call.',
  toolset: 'data',
  credential: 'optional',
  input: z.object({ filter: z.string().optional().describe('category or text') }),
  // Loose: a `not_usable` note passes without being listed (tokens).
  output: z.looseObject({ endpoints: z.array(z.string()) }),
  nature: 'read',
  async run(args, ctx) {
    const { data, not_usable } = await dataCatalog(ctx);
    const needle = args.filter?.trim().toLowerCase();
    // A category name picks that category; any other text matches id, name or description.
    const byCategory = CATEGORIES.some((category) => category === needle);
    const matching = data.filter(
      (entry) =>
        !needle ||
        (byCategory
          ? entry.category.toLowerCase() === needle
          : [entry.id, entry.name, entry.description].some((text) => text?.toLowerCase().includes(needle))),
    );
    return {
      endpoints: matching.map(
        (entry) =>
          `${entry.id} [${entry.methods.join(',')}] ${entry.category}: ${entry.pricing ?? 'pricing not stated'}`,
      ),
      ...(not_usable ? { not_usable } : {}),
    };
  },
  text: (r) =>
    [
      r.endpoints.length
        ? r.endpoints.join('\n')
        : 'No data endpoint matches; call data_endpoints without a filter to see all.',
      ...(typeof r.not_usable === 'string' ? [`(${r.not_usable}.)`] : []),
    ].join('\n'),
});
