/**
 * The import graph of the shipped code (src/, tools/, resources/): which module imports which,
 * static and dynamic imports alike. The layering meta-test checks its rules on it, and
 * `npm run graph` prints it by area for review.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

export const SHIPPED_ROOTS = ['src', 'tools', 'resources'] as const;

export interface ImportEdge {
  from: string;
  to: string;
  /** A dynamic `import()`: loaded on first use, not at start-up. */
  lazy: boolean;
}

const STATIC = /^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm;
const SIDE_EFFECT = /^\s*import\s+'([^']+)'/gm;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import between shipped modules, paths relative to `root` with `.ts` endings. */
export function importGraph(root = process.cwd()): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const top of SHIPPED_ROOTS) {
    for (const file of sourceFiles(join(root, top))) {
      const from = relative(root, file);
      const text = readFileSync(file, 'utf8');
      const found: [string, boolean][] = [
        ...[...text.matchAll(STATIC)].map((m): [string, boolean] => [m[1]!, false]),
        ...[...text.matchAll(SIDE_EFFECT)].map((m): [string, boolean] => [m[1]!, false]),
        ...[...text.matchAll(DYNAMIC)].map((m): [string, boolean] => [m[1]!, true]),
      ];
      for (const [specifier, lazy] of found) {
        if (!specifier.startsWith('.')) continue;
        const to = normalize(join(dirname(from), specifier)).replace(/\.js$/, '.ts');
        edges.push({ from, to, lazy });
      }
    }
  }
  return edges;
}

/** The area a module belongs to: `src/<folder>` or `src/<file>`, `tools/<area>`, `resources`. */
export function areaOf(path: string): string {
  const parts = path.split('/');
  // The inbound HTTP endpoint's four rooms are areas of their own.
  if (parts[1] === 'mcp' && parts[2] === 'http' && parts.length > 4) return parts.slice(0, 4).join('/');
  if (parts[0] === 'src' || parts[0] === 'tools') {
    const second = parts[1] ?? '';
    return `${parts[0]}/${parts.length > 2 ? second : second.replace(/\.ts$/, '')}`;
  }
  return parts[0] ?? path;
}

/** Cycles among modules (each as its path of modules), lazy imports excluded: they break a cycle at load. */
export function importCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) if (!edge.lazy) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (state.get(to) === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of next.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Area-to-area edges with how many imports each carries. */
export function areaEdges(edges: ImportEdge[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const edge of edges) {
    const a = areaOf(edge.from);
    const b = areaOf(edge.to);
    if (a === b) continue;
    const key = `${a} -> ${b}${edge.lazy ? ' (lazy)' : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
