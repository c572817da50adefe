/**
 * Regenerates from the registries (`npm run generate`): tools/catalog.json, manifest.json, server.json, the
 * description in package.json, and the README's tool table, list of areas and prompt table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { prompts } from '../prompts/index.js';
import { catalogEntry } from '../src/mcp/catalog.js';
import { toolCatalog } from '../tools/index.js';
import {
  areasShipped,
  manifestFor,
  packageDescription,
  promptTable,
  replaceBlock,
  toolTable,
} from './docs.js';
import { serverJsonFor } from './server-json.js';

const tools = await toolCatalog.loadAll();
await writeFile('tools/catalog.json', `${JSON.stringify(tools.map(catalogEntry), null, 2)}\n`);
await writeFile('manifest.json', `${JSON.stringify(manifestFor(tools), null, 2)}\n`);
await writeFile('server.json', `${JSON.stringify(serverJsonFor(), null, 2)}\n`);
const pkg = JSON.parse(await readFile('package.json', 'utf8'));
pkg.description = packageDescription(tools);
await writeFile('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
const readme = await readFile('README.md', 'utf8');
await writeFile(
  'README.md',
  replaceBlock(
    replaceBlock(replaceBlock(readme, 'tools', toolTable(tools)), 'areas', areasShipped(tools), true),
    'prompts',
    promptTable(prompts),
  ),
);
process.stderr.write(
  `tools/catalog.json, manifest.json, package.json description and README: ${tools.length} tools, ${prompts.length} prompts\n`,
);
