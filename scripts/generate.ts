/** Regenerates tools/catalog.json, manifest.json and the README tool table from the tool modules (`npm run generate`). */
import { readFile, writeFile } from 'node:fs/promises';
import { catalogEntry } from '../src/mcp/catalog.js';
import { toolCatalog } from '../tools/index.js';
import { manifestFor, replaceBlock, toolTable } from './docs.js';

const tools = await toolCatalog.loadAll();
await writeFile('tools/catalog.json', `${JSON.stringify(tools.map(catalogEntry), null, 2)}\n`);
await writeFile('manifest.json', `${JSON.stringify(manifestFor(tools), null, 2)}\n`);
const readme = await readFile('README.md', 'utf8');
await writeFile('README.md', replaceBlock(readme, 'tools', toolTable(tools)));
process.stderr.write(`tools/catalog.json, manifest.json and README tool table: ${tools.length} tools\n`);
