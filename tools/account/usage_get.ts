import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { readUsage, UsageOut, usageText } from './usage.js';

export default defineTool({
  name: 'usage_get',
  title: 'Subscription usage',
  description: 'Subscription used and left (more with a management token), resets, spend budget.',
  toolset: 'account',
  view: 'usage',
  credential: 'api_key',
  nature: 'read',
  input: z.object({}),
  output: UsageOut,
  run: (_args, ctx) => readUsage(ctx),
  text: usageText,
});
