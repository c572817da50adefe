/**
 * Regenerates from the registries (`npm run generate`): tools/catalog.json, manifest.json, server.json, the
 * description in package.json, the README's tool table, list of areas, prompt table and install links,
 * and the Claude Code plugin manifest.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
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
import { installBlock, pluginManifest } from './install.js';
import { serverJsonFor } from './server-json.js';

const tools = await toolCatalog.loadAll();
await writeFile('tools/catalog.json', `${JSON.stringify(tools.map(catalogEntry), null, 2)}\n`);
await writeFile('manifest.json', `${JSON.stringify(manifestFor(tools), null, 2)}\n`);
await writeFile('server.json', `${JSON.stringify(serverJsonFor(), null, 2)}\n`);
const pkg = JSON.parse(await readFile('package.json', 'utf8'));
pkg.description = packageDescription(tools);
await writeFile('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
const readme = await readFile('README.md', 'utf8');
const blocks: [string, string, boolean][] = [
  ['tools', toolTable(tools), false],
  ['areas', areasShipped(tools), true],
  ['prompts', promptTable(prompts), false],
  ['install', installBlock(), false],
];
await writeFile(
  'README.md',
  blocks.reduce((text, [name, body, inline]) => replaceBlock(text, name, body, inline), readme),
);
await mkdir('.claude-plugin', { recursive: true });
await writeFile('.claude-plugin/plugin.json', `${JSON.stringify(pluginManifest(), null, 2)}\n`);
process.stderr.write(
  `tools/catalog.json, manifest.json, package.json description and README: ${tools.length} tools, ${prompts.length} prompts\n`,
);
