import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { matchTemplate } from '../../../src/mcp/define-resource.js';
import { runIsolated } from '../../helpers/isolated.js';

describe('matchTemplate', () => {
  it('cuts a part at the first literal after it and gives the last part the rest', () => {
    expect(matchTemplate('orbit://models/{kind}/{id}', 'orbit://models/text/openai/gpt-4o')).toEqual({
      kind: 'text',
      id: 'openai/gpt-4o',
    });
    expect(matchTemplate('orbit://models/{kind}', 'orbit://models/image')).toEqual({ kind: 'image' });
    expect(matchTemplate('orbit://usage', 'orbit://usage')).toEqual({});
    expect(matchTemplate('orbit://media/{id}', 'orbit://media/a%2Fb')).toEqual({ id: 'a/b' });
  });

  it('matches no URI with an empty part or another prefix', () => {
    expect(matchTemplate('orbit://models/{kind}/{id}', 'orbit://models/text/')).toBeUndefined();
    expect(matchTemplate('orbit://models/{kind}/{id}', 'orbit://models//gpt')).toBeUndefined();
    expect(matchTemplate('orbit://models/{kind}', 'orbit://models/')).toBeUndefined();
    expect(matchTemplate('orbit://usage', 'orbit://usage/x')).toBeUndefined();
    expect(matchTemplate('orbit://jobs/{id}', 'orbit://media/x')).toBeUndefined();
    expect(matchTemplate('{a}.json', 'x.jso')).toBeUndefined();
    expect(matchTemplate('{a}.json', 'x.json')).toEqual({ a: 'x' });
  });

  it('refuses a malformed % escape as the caller’s bad input', () => {
    expect(() => matchTemplate('orbit://media/{id}', 'orbit://media/%zz')).toThrow(InputError);
  });

  // The template was once a regex with two lazy `(.+?)` groups: this URI took time growing with the
  // square of its length (64 KB: 1 s; 1 MB: minutes). Now one forward scan.
  it('answers a hostile 1 MB URI by one scan, without backtracking', async () => {
    const parts = await runIsolated<Record<string, string> | null>(`
      const { matchTemplate } = await load('src/mcp/define-resource.ts');
      return matchTemplate('orbit://models/{kind}/{id}', 'orbit://models/' + 'a/'.repeat(500000) + '\\n');
    `);
    expect(parts?.kind).toBe('a');
    expect(parts?.id).toHaveLength(999_999);
  });
});
