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

/**
 * Cycles among modules (each as its path of modules), lazy imports included: a lazy import breaks
 * a cycle at load, not in the design (two modules that need each other are one concern or a
 * missing leaf).
 */
export function importCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
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

/**
 * Imports between rooms that run against the direction of the layers and are known, each with
 * why; `rooms: no cycle` ignores these and fails once one no longer occurs, so the list only
 * shrinks. Empty since the last (cluster -> sessions) gave way to auth/session-bounds.ts.
 */
export const EXCUSED_ROOM_IMPORTS: ReadonlyMap<string, string> = new Map();

const roomEdge = (edge: ImportEdge) => `${areaOf(edge.from)} -> ${areaOf(edge.to)}`;

/**
 * Rooms (areas) that import each other, directly or round a loop, through any import (static,
 * lazy or type-only): each group with the imports between its rooms. `excused` room edges
 * (`a -> b`) are left out.
 */
export function roomCycles(
  edges: ImportEdge[],
  excused: ReadonlyMap<string, string> = EXCUSED_ROOM_IMPORTS,
): { rooms: string[]; imports: string[] }[] {
  const between = edges.filter((e) => areaOf(e.from) !== areaOf(e.to) && !excused.has(roomEdge(e)));
  const next = new Map<string, Set<string>>();
  for (const edge of between) {
    const from = areaOf(edge.from);
    next.set(from, (next.get(from) ?? new Set()).add(areaOf(edge.to)));
  }
  // Tarjan's strongly connected components over the rooms.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (room: string) => {
    index.set(room, index.size);
    low.set(room, index.get(room)!);
    stack.push(room);
    onStack.add(room);
    for (const to of next.get(room) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room)!, index.get(to)!));
    }
    if (low.get(room) !== index.get(room)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== room);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const room of next.keys()) if (!index.has(room)) visit(room);
  return groups.map((rooms) => ({
    rooms,
    imports: between
      .filter((e) => rooms.includes(areaOf(e.from)) && rooms.includes(areaOf(e.to)))
      .map((e) => `${e.from} -> ${e.to}`),
  }));
}

/** Room edges as they occur in the graph (`a -> b`), to check that an excuse is still needed. */
export function roomEdges(edges: ImportEdge[]): Set<string> {
  return new Set(edges.filter((e) => areaOf(e.from) !== areaOf(e.to)).map(roomEdge));
}

/**
 * The rooms in layers, bottom first: a room's layer is one above the highest room it imports
 * (excused imports aside), so every import runs down the list. Undefined while rooms form a cycle.
 */
export function roomLayers(
  edges: ImportEdge[],
  excused: ReadonlyMap<string, string> = EXCUSED_ROOM_IMPORTS,
): string[][] | undefined {
  if (roomCycles(edges, excused).length > 0) return undefined;
  const next = new Map<string, Set<string>>();
  for (const edge of edges) {
    const from = areaOf(edge.from);
    const to = areaOf(edge.to);
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    if (from !== to && !excused.has(roomEdge(edge))) next.get(from)!.add(to);
  }
  const layer = new Map<string, number>();
  const layerOf = (room: string): number => {
    const known = layer.get(room);
    if (known !== undefined) return known;
    const below = [...(next.get(room) ?? [])].map(layerOf);
    const found = below.length ? Math.max(...below) + 1 : 0;
    layer.set(room, found);
    return found;
  };
  const layers: string[][] = [];
  for (const room of [...next.keys()].sort()) {
    const at = layerOf(room);
    layers[at] = [...(layers[at] ?? []), room];
  }
  return layers;
}

const LAZY = /(?<!typeof\s)\bimport\(\s*'([^']+)'\s*\)/g;

/** Every `import()` in shipped code, of one of our modules or of a package (`typeof import()` is a type). */
export function lazyImports(root = process.cwd()): { from: string; specifier: string }[] {
  return SHIPPED_ROOTS.flatMap((top) =>
    sourceFiles(join(root, top)).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(LAZY)].map((m) => ({
        from: relative(root, file),
        specifier: m[1]!,
      })),
    ),
  );
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
