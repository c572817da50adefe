import { readFileSync } from 'node:fs';
import { ALL_TOOLSETS, TOOLSETS, type Toolset } from '../../src/config.js';
import { hits, type Ranked, rankRequests, type SearchedTool, searchText } from './rank.js';
import { REQUESTS } from './requests.js';

const DEFAULT_TOOLSETS = ALL_TOOLSETS.filter((name) => TOOLSETS[name]);

/** The tools as this checkout lists them (tools/catalog.json, which a meta-test keeps equal to the modules). */
export function currentTools(): SearchedTool[] {
  const catalog = JSON.parse(readFileSync('tools/catalog.json', 'utf8')) as {
    name: string;
    toolset: Toolset;
    listing: Parameters<typeof searchText>[0];
  }[];
  return catalog.map((entry) => ({
    name: entry.name,
    toolset: entry.toolset,
    text: searchText(entry.listing),
  }));
}

/** The tools as main listed them before issue 35 (bench/retrieval/before.json). */
export function toolsBefore(): SearchedTool[] {
  return (JSON.parse(readFileSync('bench/retrieval/before.json', 'utf8')) as { tools: SearchedTool[] }).tools;
}

export const COMBINATIONS = [
  ['all toolsets', ALL_TOOLSETS],
  ['default toolsets', DEFAULT_TOOLSETS],
] as const;

export function evaluate(tools: readonly SearchedTool[]) {
  return COMBINATIONS.map(([label, toolsets]) => {
    const tuned = rankRequests(
      tools,
      REQUESTS.filter((r) => !r.heldOut),
      toolsets,
    );
    const heldOut = rankRequests(
      tools,
      REQUESTS.filter((r) => r.heldOut),
      toolsets,
    );
    return { label, toolsets, tuned, heldOut, tunedHits: hits(tuned), heldOutHits: hits(heldOut) };
  });
}

export function misses(ranked: readonly Ranked[], k = 3): string[] {
  return ranked
    .filter((entry) => entry.rank > k)
    .map(
      (entry) =>
        `${entry.request.ask} → ${entry.request.tools.join('|')} (rank ${entry.rank}; top ${entry.top.join(', ')})`,
    );
}
