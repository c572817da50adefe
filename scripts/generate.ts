/** Regenerates manifest.json and the README tool table from the registry (`npm run generate`). */
import { readFile, writeFile } from 'node:fs/promises';
import { tools } from '../tools/index.js';
import { manifestFor, replaceBlock, toolTable } from './docs.js';

await writeFile('manifest.json', `${JSON.stringify(manifestFor(tools), null, 2)}\n`);
const readme = await readFile('README.md', 'utf8');
await writeFile('README.md', replaceBlock(readme, 'tools', toolTable(tools)));
process.stderr.write(`manifest.json and README tool table: ${tools.length} tools\n`);
