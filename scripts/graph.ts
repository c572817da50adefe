/**
 * Prints the shipped code's rooms in layers (every import runs down the list), the imports between
 * rooms, the lazy imports and any cycle (`npm run graph`).
 */
import {
  areaEdges,
  areaOf,
  EXCUSED_ROOM_IMPORTS,
  importCycles,
  importGraph,
  lazyImports,
  roomCycles,
  roomLayers,
} from './lib/import-graph.js';

const edges = importGraph();
const modules = new Map<string, number>();
for (const path of new Set(edges.flatMap((e) => [e.from, e.to]))) {
  const room = areaOf(path);
  modules.set(room, (modules.get(room) ?? 0) + 1);
}

const layers = roomLayers(edges);
if (layers) {
  console.log(
    'Rooms in layers, top first (modules in each): a room imports only rooms of the layers below it.\n',
  );
  for (let level = layers.length - 1; level >= 0; level--) {
    const rooms = (layers[level] ?? []).map((room) => `${room} (${modules.get(room)})`);
    console.log(`${String(level).padStart(2)}  ${rooms.join('  ')}`);
  }
  console.log('\nExcused imports against the layers (test/meta/layers.test.ts):');
  for (const [edge, why] of EXCUSED_ROOM_IMPORTS) console.log(`    ${edge}: ${why}`);
}

const lazy = lazyImports();
console.log(`\n${edges.length} imports between shipped modules; ${lazy.length} lazy imports (import()):`);
for (const { from, specifier } of lazy.filter((l) => l.from !== 'tools/index.ts'))
  console.log(`    ${from} -> ${specifier}`);
console.log(
  `    tools/index.ts -> each tool file (${lazy.filter((l) => l.from === 'tools/index.ts').length})`,
);

console.log('\nImports between rooms:\n');
const byArea = [...areaEdges(edges)].sort(([a], [b]) => a.localeCompare(b));
for (const [edge, count] of byArea) console.log(`${edge}  ×${count}`);

const rooms = roomCycles(edges);
console.log(`\n${rooms.length} cycles between rooms`);
for (const { rooms: group, imports } of rooms)
  console.log(`${group.join(', ')}:\n    ${imports.join('\n    ')}`);
const cycles = importCycles(edges);
console.log(`\n${cycles.length} import cycles`);
for (const cycle of cycles) console.log(cycle.join(' > '));
