import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { completionResult, MAX_COMPLETIONS } from '../../../src/mcp/completions.js';
import { definePrompt, describeArgument, enumValues, startingWith } from '../../../src/mcp/define-prompt.js';
import { promptListing } from '../../../src/mcp/prompt-gets.js';

const sample = definePrompt({
  name: 'sample',
  title: 'Sample',
  description: 'A prompt for tests.',
  arguments: z.object({
    topic: z.string().describe('what about'),
    tone: z.enum(['dry', 'warm']).default('dry').describe('how it sounds'),
    size: z.enum(['s', 'm']).optional().describe('how long'),
  }),
  tools: [],
  render: ({ topic, tone }) => [{ role: 'user', text: `${topic} ${tone}` }],
});

describe('prompt arguments', () => {
  it('finds enum values through optional and default wrappers, and nothing for free text', () => {
    expect(enumValues(sample.arguments.shape.tone!)).toEqual(['dry', 'warm']);
    expect(enumValues(sample.arguments.shape.size!)).toEqual(['s', 'm']);
    expect(enumValues(sample.arguments.shape.topic!)).toBeUndefined();
  });

  it('reads a description given inside a wrapper', () => {
    expect(describeArgument(z.string().describe('inner').optional())).toBe('inner');
    expect(describeArgument(z.string().optional().describe('outer'))).toBe('outer');
  });

  it('lists required arguments as required and spells out enum choices', () => {
    expect(promptListing(sample).arguments).toEqual([
      { name: 'topic', description: 'what about', required: true },
      { name: 'tone', description: 'how it sounds (one of: dry, warm)', required: false },
      { name: 'size', description: 'how long (one of: s, m)', required: false },
    ]);
  });
});

describe('completion results', () => {
  it('filters by prefix, ignoring case and surrounding spaces', () => {
    expect(startingWith(['Alpha', 'beta', 'alps'], ' al')).toEqual(['Alpha', 'alps']);
    expect(startingWith(['a', 'b'], '')).toEqual(['a', 'b']);
  });

  it('sends at most 100 values and says how many matched', () => {
    const many = Array.from({ length: 250 }, (_, i) => `model-${i}`);
    const result = completionResult(many);
    expect(result.completion.values).toHaveLength(MAX_COMPLETIONS);
    expect(result.completion.values[0]).toBe('model-0');
    expect(result.completion).toMatchObject({ total: 250, hasMore: true });
    expect(completionResult(['a']).completion).toEqual({ values: ['a'], total: 1, hasMore: false });
  });
});
