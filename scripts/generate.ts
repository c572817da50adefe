/** Regenerates tools/catalog.json, manifest.json and the README tool and prompt tables from the registries (`npm run generate`). */
import { readFile, writeFile } from 'node:fs/promises';
import { prompts } from '../prompts/index.js';
import { catalogEntry } from '../src/mcp/catalog.js';
import { toolCatalog } from '../tools/index.js';
import { manifestFor, promptTable, replaceBlock, toolTable } from './docs.js';

const tools = await toolCatalog.loadAll();
await writeFile('tools/catalog.json', `${JSON.stringify(tools.map(catalogEntry), null, 2)}\n`);
await writeFile('manifest.json', `${JSON.stringify(manifestFor(tools), null, 2)}\n`);
const readme = await readFile('README.md', 'utf8');
await writeFile(
  'README.md',
  replaceBlock(replaceBlock(readme, 'tools', toolTable(tools)), 'prompts', promptTable(prompts)),
);
process.stderr.write(
  `tools/catalog.json, manifest.json and README tool and prompt tables: ${tools.length} tools, ${prompts.length} prompts\n`,
);
