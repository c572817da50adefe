import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { Filters } from './batch-query.js';
import { BatchSummary, listBatches, summary, summaryLine } from './batches.js';

const Item = z.looseObject({ id: z.string(), status: z.string() });

export default defineTool({
  name: 'batches_list',
  title: 'List batches',
  description:
    'Batch jobs (bulk requests), newest first, by status (running, failed) and time. One: batches_get.',
  toolset: 'account',
  credential: 'api_key',
  nature: 'read',
  input: Filters.extend({
    limit: z.number().int().min(1).max(100).optional(),
    created_after: Filters.shape.created_after.describe('Unix s or ISO with zone'),
    after: z.string().optional().describe('id: older page'),
    before: z.string().optional().describe('id: newer page'),
    cursor: z.string().optional(),
  }),
  // Loose: a `not_usable` note passes without being listed (tokens).
  output: z.looseObject({
    batches: z.array(Item),
    has_more: z.boolean(),
    older_cursor: z.string().optional(),
    newer_cursor: z.string().optional(),
  }),
  async run(args, { api }) {
    const page = await listBatches(api, args);
    return { ...page, batches: page.batches.map(summary) };
  },
  text: (r) => {
    const parsed = z.array(BatchSummary).safeParse(r.batches);
    const lines = parsed.success ? parsed.data.map(summaryLine) : [JSON.stringify(r.batches)];
    if (lines.length === 0) lines.push('No batches match.');
    if (r.older_cursor) lines.push(`Older: cursor ${r.older_cursor}`);
    if (r.newer_cursor) lines.push(`Newer: cursor ${r.newer_cursor}`);
    if (typeof r.not_usable === 'string') lines.push(`(${r.not_usable})`);
    return lines.join('\n');
  },
});
