import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { readUsage, UsageOut, usageText } from './usage.js';

export default defineTool({
  name: 'usage_get',
  title: 'Subscription usage',
  description:
    'Money spent and usage: subscription used and left, balance, credits, when quotas reset, spend budget.',
  toolset: 'account',
  alwaysLoad: true,
  view: 'usage',
  credential: 'api_key',
  nature: 'read',
  input: z.object({}),
  output: UsageOut,
  run: (_args, ctx) => readUsage(ctx),
  text: usageText,
});
