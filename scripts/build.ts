/** Bundles the bin into dist/ with esbuild (`npm run build`). Start-up is paid on every spawn. */
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
