import { z } from 'zod';
import { definePrompt } from '../src/mcp/define-prompt.js';
import { modelIdList } from '../tools/models/completions.js';
import { call, steps } from './shared.js';

/** Model ids as a person types them: comma-separated, spaces allowed, each once. */
const modelList = z
  .string()
  .transform((value) => [
    ...new Set(
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(z.array(z.string()).min(2, 'name at least two models').max(6, 'name at most six models'));

export default definePrompt({
  name: 'compare_models',
  title: 'Compare models',
  description: 'Put one question to several models and compare their answers, tokens and cost.',
  arguments: z.object({
    question: z.string().trim().min(1).describe('the question to put to each model'),
    models: modelList.optional().describe('2-6 model ids, comma-separated; empty: the assistant picks three'),
  }),
  tools: ['models_list', 'chat'],
  complete: { models: modelIdList('text') },
  render: ({ question, models }) =>
    steps(
      `Compare how different models answer this question:\n\n<question>\n${question}\n</question>`,
      models
        ? `The models: ${models.join(', ')}.`
        : `Pick three contrasting text models (different providers and sizes): ${call('models_list', { kind: 'text', detailed: true })}.`,
      `Ask each model: ${call('chat', { model: '<model id>', prompt: '<the question, verbatim>' })}. Do not answer it yourself first.`,
      'Reply with a table (model, its answer in one line, tokens, cost), then say which answer is best and why, and where they disagree.',
    ),
});
