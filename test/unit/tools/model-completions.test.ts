import { describe, expect, it } from 'vitest';
import { matchingIds, splitList } from '../../../tools/models/completions.js';

const IDS = [
  'openai/gpt-sandbox',
  'openai/gpt-sandbox-mini',
  'anthropic/claude-sandbox',
  'gpt-raw',
  'pixel-lite',
];

describe('model id completion', () => {
  it('matches whole ids first, then the name after the provider', () => {
    expect(matchingIds(IDS, 'gpt')).toEqual(['gpt-raw', 'openai/gpt-sandbox', 'openai/gpt-sandbox-mini']);
    expect(matchingIds(IDS, 'OpenAI/GPT-sandbox-')).toEqual(['openai/gpt-sandbox-mini']);
    expect(matchingIds(IDS, 'sandbox')).toEqual([]);
    expect(matchingIds(IDS, '')).toEqual(IDS);
  });

  it('splits a typed list into what stays, the id being typed, and the ids already chosen', () => {
    expect(splitList('a/b, c/d,  e')).toEqual({
      head: 'a/b, c/d,  ',
      last: 'e',
      chosen: new Set(['a/b', 'c/d']),
    });
    expect(splitList('gp')).toEqual({ head: '', last: 'gp', chosen: new Set() });
    expect(splitList('a/b,')).toEqual({ head: 'a/b,', last: '', chosen: new Set(['a/b']) });
  });
});
