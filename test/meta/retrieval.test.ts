/**
 * The retrieval bench as a test: a client's keyword tool search (BM25 over names, descriptions and
 * argument text, bench/retrieval) finds the tool for requests written in users' words. The ranking
 * is deterministic, so the targets are asserted here; `npm run bench` reports the same figures.
 */
import { describe, expect, it } from 'vitest';
import { bm25Index, terms } from '../../bench/retrieval/bm25.js';
import { COMBINATIONS, currentTools, evaluate, misses, toolsBefore } from '../../bench/retrieval/evaluate.js';
import { REQUESTS } from '../../bench/retrieval/requests.js';
import { toolCatalog } from '../../tools/index.js';

const results = evaluate(currentTools());

describe('BM25 as clients build it', () => {
  it('lowercases, splits at anything but letters and digits, drops stop words and possessives, stems nothing', () => {
    expect(terms("Draw the user's LOGO in 16:9, images_edit")).toEqual([
      'draw',
      'user',
      'logo',
      '16',
      '9',
      'images',
      'edit',
    ]);
  });

  it('ranks a rarer matching term above a common one, and a shorter document above a longer one', () => {
    const index = bm25Index(['image draw', 'image edit', 'image video audio text draw more words here']);
    const [draw, edit, long] = index.score('draw image');
    expect(draw).toBeGreaterThan(edit!);
    expect(draw).toBeGreaterThan(long!);
    expect(index.score('nothing matches')).toEqual([0, 0, 0]);
  });
});

describe('the retrieval bench', () => {
  it('has at least 150 requests, about 30 held out, each naming tools that exist', () => {
    const names = new Set(toolCatalog.entries.map((entry) => entry.name));
    expect(REQUESTS.length).toBeGreaterThanOrEqual(150);
    expect(REQUESTS.filter((request) => request.heldOut).length).toBeGreaterThanOrEqual(30);
    for (const request of REQUESTS)
      for (const tool of request.tools) expect(names, request.ask).toContain(tool);
    expect(new Set(REQUESTS.map((request) => request.ask)).size).toBe(REQUESTS.length);
  });

  it('asks for every tool at least three times', () => {
    for (const entry of toolCatalog.entries) {
      expect(
        REQUESTS.filter((request) => request.tools.includes(entry.name)).length,
        entry.name,
      ).toBeGreaterThanOrEqual(3);
    }
  });

  it.each(COMBINATIONS.map(([label]) => label))(
    'finds the tool among the first three for 95%% and first for 75%%, %s',
    (label) => {
      const result = results.find((entry) => entry.label === label)!;
      expect(result.tunedHits.top3, misses(result.tuned, 3).join('\n')).toBeGreaterThanOrEqual(0.95);
      expect(result.tunedHits.top1, misses(result.tuned, 1).join('\n')).toBeGreaterThanOrEqual(0.75);
    },
  );

  it('does better than main did before issue 35 on the held-out requests too', () => {
    const before = evaluate(toolsBefore());
    for (const [index, result] of results.entries()) {
      expect(result.heldOutHits.top3).toBeGreaterThan(before[index]!.heldOutHits.top3);
      expect(result.heldOutHits.top1).toBeGreaterThan(before[index]!.heldOutHits.top1);
    }
  });
});
