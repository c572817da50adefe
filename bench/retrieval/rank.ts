import type { Toolset } from '../../src/config.js';
import { bm25Index } from './bm25.js';
import type { RetrievalRequest } from './requests.js';

/** One tool as a keyword search sees it: its name, toolset and searchable text. */
export interface SearchedTool {
  name: string;
  toolset: Toolset;
  text: string;
}

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/** The name (split at `_` by the analyzer), the description, and every argument's name and description. */
export function searchText(tool: ListedTool): string {
  const parts = [tool.name, tool.description ?? ''];
  const visit = (schema: unknown) => {
    if (!schema || typeof schema !== 'object') return;
    const node = schema as Record<string, unknown>;
    if (node.properties && typeof node.properties === 'object') {
      for (const [name, property] of Object.entries(node.properties as Record<string, unknown>)) {
        parts.push(name);
        const described = (property as { description?: unknown } | undefined)?.description;
        if (typeof described === 'string') parts.push(described);
        visit(property);
      }
    }
    visit(node.items);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
      if (Array.isArray(node[key])) for (const option of node[key]) visit(option);
  };
  visit(tool.inputSchema);
  return parts.join(' ');
}

export interface Ranked {
  request: RetrievalRequest;
  /** The best rank of a serving tool (1 = first); ties count against it; Infinity when no serving tool scores. */
  rank: number;
  /** The first three tools found, for reading misses. */
  top: string[];
}

/**
 * Ranks the tools of the enabled toolsets for each request whose serving tools are among them.
 * A tied tool that does not serve the request is counted ahead of the one that does (the
 * pessimistic order: a client's tie-break is its own business).
 */
export function rankRequests(
  tools: readonly SearchedTool[],
  requests: readonly RetrievalRequest[],
  toolsets: readonly Toolset[],
): Ranked[] {
  const shown = tools.filter((tool) => toolsets.includes(tool.toolset));
  const names = new Set(shown.map((tool) => tool.name));
  const index = bm25Index(shown.map((tool) => tool.text));
  const out: Ranked[] = [];
  for (const request of requests) {
    const serving = request.tools.filter((name) => names.has(name));
    if (serving.length === 0) continue;
    const scores = index.score(request.ask);
    const best = Math.max(...shown.map((tool, i) => (serving.includes(tool.name) ? scores[i]! : 0)));
    const ahead = shown.filter((tool, i) => !serving.includes(tool.name) && scores[i]! >= best).length;
    const top = shown
      .map((tool, i) => ({ name: tool.name, score: scores[i]! }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 3)
      .map((entry) => entry.name);
    out.push({ request, rank: best > 0 ? ahead + 1 : Number.POSITIVE_INFINITY, top });
  }
  return out;
}

export interface Hits {
  requests: number;
  top1: number;
  top3: number;
}

export function hits(ranked: readonly Ranked[]): Hits {
  return {
    requests: ranked.length,
    top1: ranked.filter((entry) => entry.rank <= 1).length / Math.max(1, ranked.length),
    top3: ranked.filter((entry) => entry.rank <= 3).length / Math.max(1, ranked.length),
  };
}
