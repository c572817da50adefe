/**
 * A keyword tool search as clients build one: Okapi BM25 over one document per tool. Anthropic's
 * tool search (BM25 and regex variants) says it searches names, descriptions, argument names and
 * argument descriptions; Codex's `search_tool_bm25` indexes name, title, description and argument
 * names with English stemming (the `bm25` crate); Claude Code's ToolSearch scores name parts, the
 * `anthropic/searchHint` and description words; open agents' tool-discovery extensions split
 * names and drop stop words. No npm package fitted: `okapibm25` matches substrings ("art" in
 * "start"), MiniSearch multiplies each score by the number of query terms matched.
 *
 * - Document: the tool's name (split at `_`), its description, and every argument's name and
 *   description, nested ones included (what Anthropic's tool search says it searches). Title,
 *   enum values, output schema and annotations are not searched.
 * - Terms: lowercased runs of ASCII letters and digits, a possessive `'s` dropped, Lucene's
 *   English stop words removed, nothing stemmed ("images" does not match "image"): the strictest
 *   of the common analyzers, so a word must be written the way people write it.
 * - Score: k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5) / (n + 0.5)) (Lucene's, never negative); a
 *   query term counts once however often it is repeated.
 */

/** Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`. */
const STOP_WORDS = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

const K1 = 1.2;
const B = 0.75;

export function terms(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^a-z0-9]+/)
    .filter((term) => term !== '' && !STOP_WORDS.has(term));
}

export interface Bm25Index {
  /** Scores of every document for the query, in document order. */
  score(query: string): number[];
}

export function bm25Index(documents: readonly string[]): Bm25Index {
  const docs = documents.map((text) => {
    const frequencies = new Map<string, number>();
    const words = terms(text);
    for (const word of words) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
    return { frequencies, length: words.length };
  });
  const averageLength = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, docs.length);
  const containing = new Map<string, number>();
  for (const doc of docs)
    for (const word of doc.frequencies.keys()) containing.set(word, (containing.get(word) ?? 0) + 1);
  const idf = (word: string) => {
    const n = containing.get(word) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  return {
    score(query) {
      const asked = [...new Set(terms(query))];
      return docs.map((doc) => {
        let score = 0;
        for (const word of asked) {
          const tf = doc.frequencies.get(word) ?? 0;
          if (tf === 0) continue;
          score += (idf(word) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / averageLength));
        }
        return score;
      });
    },
  };
}
