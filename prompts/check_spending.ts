import { z } from 'zod';
import { definePrompt } from '../src/mcp/define-prompt.js';
import { call, steps } from './shared.js';

export default definePrompt({
  name: 'check_spending',
  title: 'Check my spending',
  description: 'What this account has used and has left, when it resets, and whether a planned job fits.',
  arguments: z.object({
    plan: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe('what you plan to run next, to check it fits (e.g. "200 images with pixel-lite")'),
  }),
  tools: ['usage_get', 'models_get'],
  render: ({ plan }) =>
    steps(
      'Check my spending.',
      `${call('usage_get', {})}.`,
      'In a few lines: subscription used and left, when it resets, and the spend budget left if one is set. Flag anything over 80 % used.',
      plan &&
        `Next I plan: ${plan}\n   Estimate its cost from the model's price (${call('models_get', { id: '<model id>' })}) and say whether it fits in what is left.`,
    ),
});
