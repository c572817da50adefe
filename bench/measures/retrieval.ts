import type { Figure } from '../lib/figure.js';
import { currentTools, evaluate, toolsBefore } from '../retrieval/evaluate.js';

const percent = (share: number) => Math.round(share * 1000) / 10;

/**
 * The retrieval bench (bench/retrieval): a client's BM25 tool search over this listing against the
 * same search over main's before issue 35, for the tuned and the held-out requests, every toolset
 * combination. Deterministic: the same figures as test/meta/retrieval.test.ts asserts.
 */
export function measureRetrieval(): Figure[] {
  const now = evaluate(currentTools());
  const before = evaluate(toolsBefore());
  const figures: Figure[] = [];
  for (const [index, result] of now.entries()) {
    const was = before[index]!;
    for (const [set, hits, wasHits] of [
      ['', result.tunedHits, was.tunedHits],
      [', held out', result.heldOutHits, was.heldOutHits],
    ] as const) {
      for (const k of ['top1', 'top3'] as const) {
        const target = set ? undefined : k === 'top1' ? 75 : 95;
        figures.push({
          id: `retrieval_${k}_${result.label.startsWith('all') ? 'all' : 'default'}${set ? '_held_out' : ''}`,
          measure: `Tool found ${k === 'top1' ? 'first' : 'in the first three'} by a BM25 tool search, ${result.label}${set} (${hits.requests} requests; baseline: main before issue 35)`,
          unit: '%',
          orbit: percent(hits[k]),
          baseline: percent(wasHits[k]),
          added: percent(hits[k]) - percent(wasHits[k]),
          ...(target ? { target: `≥ ${target}%`, pass: percent(hits[k]) >= target } : {}),
        });
      }
    }
  }
  return figures;
}
