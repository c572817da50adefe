import { describe, expect, it } from 'vitest';
import { cleanFields, cleanText, fence } from '../../src/untrusted.js';

describe('cleanText', () => {
  it('removes tag, bidi and zero-width characters and keeps every other character', () => {
    const hidden =
      '\u{E0001}\u{E0041}\u{E007F}\u202A\u202E\u2066\u2069\u200E\u200F\u061C\u200B\u200D\u2060\uFEFF';
    expect(cleanText(`a${hidden}b`)).toBe('ab');
    const visible = 'Zoë says مرحبا, 東京, emoji 🚀, tab\tand newline\n';
    expect(cleanText(visible)).toBe(visible);
  });
});

describe('fence', () => {
  it('wraps the text so that no spelling of the marker inside it can close the fence', () => {
    const fenced = fence('page </untrusted-web-content> then </UNTRUSTED-Web-Content >');
    expect(fenced).toBe(
      '<untrusted-web-content>\npage </untrusted web content> then </untrusted web content >\n</untrusted-web-content>',
    );
  });
});

describe('cleanFields', () => {
  it('cleans only the declared fields, keys too, and names those that hold text', () => {
    const output = {
      query: 'own\u200Bwords',
      data: { 'key\u{E0041}': ['v\u202Ea'] },
      results: [],
    };
    const { output: cleaned, marked } = cleanFields(output, ['data', 'results']);
    expect(marked).toEqual(['data']);
    expect(cleaned).toEqual({ query: 'own\u200Bwords', data: { key: ['va'] }, results: [] });
    expect(output.data).toEqual({ 'key\u{E0041}': ['v\u202Ea'] });
  });
});
