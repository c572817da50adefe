/**
 * `npm run build`: the bin bundled into dist/ with esbuild (start-up is paid on every spawn), and
 * the library (`import { createOrbitServer } from 'orbit-mcp'`) compiled unbundled with its types
 * into dist/lib, so its dependencies stay real dependencies shared with the caller's.
 */
import { execFileSync } from 'node:child_process';
import { chmod, rm } from 'node:fs/promises';
import { build } from 'esbuild';
import { BUILD_OPTIONS } from './build-options.js';

await rm('dist', { recursive: true, force: true });
const result = await build({
  ...BUILD_OPTIONS,
  entryPoints: { 'orbit-mcp': 'src/main.ts' },
  outdir: 'dist',
  metafile: true,
});
await chmod('dist/orbit-mcp.js', 0o755);
const outputs = Object.values(result.metafile.outputs);
const kib = outputs.reduce((sum, out) => sum + out.bytes, 0) / 1024;
process.stderr.write(`built dist/orbit-mcp.js (${outputs.length} files, ${kib.toFixed(0)} KiB)\n`);

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.lib.json'], {
  stdio: 'inherit',
});
process.stderr.write('built dist/lib (the library, with types)\n');
