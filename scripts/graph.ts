/** Prints the import graph of the shipped code by area (`npm run graph`), and any cycle. */
import { areaEdges, importCycles, importGraph } from './lib/import-graph.js';

const edges = importGraph();
const byArea = [...areaEdges(edges)].sort(([a], [b]) => a.localeCompare(b));
console.log(`${edges.length} imports (${edges.filter((e) => e.lazy).length} lazy) between shipped modules\n`);
for (const [edge, count] of byArea) console.log(`${edge}  ×${count}`);
const cycles = importCycles(edges);
console.log(`\n${cycles.length} import cycles`);
for (const cycle of cycles) console.log(cycle.join(' > '));
