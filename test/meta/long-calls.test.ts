/**
 * A tool that reports progress or waits on a platform job says so (`long` in defineTool): over HTTP
 * only such calls get a resumable stream from their start (src/mcp/http/sessions/priming.ts), so a
 * tool that forgot it would lose a dropped connection's progress and result. Read from the code:
 * what a tool's module reaches through tools/ (its helpers) and whether that reports progress or
 * waits on a job (src/jobs/wait.ts, follow.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../scripts/lib/import-graph.js';
import catalog from '../../tools/catalog.json' with { type: 'json' };

const edges = importGraph();
const registry = readFileSync('tools/index.ts', 'utf8');
const toolFiles = new Map(
  [...registry.matchAll(/^\s+([a-z_0-9]+): \(\) => import\('\.\/([a-z_]+\/[a-z_0-9]+)\.js'\)/gm)].map((m) => [
    m[1]!,
    `tools/${m[2]}.ts`,
  ]),
);
const JOB_WAITS = new Set(['src/jobs/wait.ts', 'src/jobs/follow.ts']);
const REPORTS = /\bprogress\.report\(|\bctx\.progress\b/;

/** The modules a tool's file reaches through tools/ (its own helpers), and the job machinery it reaches from there. */
function reach(file: string): Set<string> {
  const seen = new Set([file]);
  for (const at of seen) {
    if (!at.startsWith('tools/')) continue;
    for (const edge of edges) if (edge.from === at && !edge.lazy) seen.add(edge.to);
  }
  return seen;
}

function canTakeLong(file: string): boolean {
  const reached = [...reach(file)];
  return (
    reached.some((path) => JOB_WAITS.has(path)) ||
    reached.some((path) => path.startsWith('tools/') && REPORTS.test(readFileSync(path, 'utf8')))
  );
}

describe('long calls', () => {
  it('reads every tool module', () => {
    expect(toolFiles.size).toBe(catalog.length);
  });

  it('marks as long exactly the tools that report progress or wait on a job', () => {
    const declared = catalog.filter((entry) => 'long' in entry).map((entry) => entry.name);
    const found = [...toolFiles].filter(([, file]) => canTakeLong(file)).map(([name]) => name);
    expect(declared.sort()).toEqual(found.sort());
    expect(found.length).toBeGreaterThan(5);
  });
});
