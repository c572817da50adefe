/**
 * Bundles the bin into dist/ with esbuild. Start-up is what desktop assistants pay on every
 * spawn, so one bundled entry loads far fewer files than node_modules would; code behind
 * dynamic imports (sandbox, HTTP transport, undici) becomes separate chunks loaded on demand.
 */
import { chmod, rm } from 'node:fs/promises';
import { build } from 'esbuild';

await rm('dist', { recursive: true, force: true });
const result = await build({
  entryPoints: { 'orbit-mcp': 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  metafile: true,
  chunkNames: 'chunks/[name]-[hash]',
  // Some dependencies are CommonJS and call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __orbitRequire } from 'node:module'; const require = __orbitRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
await chmod('dist/orbit-mcp.js', 0o755);
const bytes = Object.entries(result.metafile.outputs).reduce((sum, [, out]) => sum + out.bytes, 0);
process.stderr.write(
  `built dist/orbit-mcp.js (${Object.keys(result.metafile.outputs).length} files, ${(bytes / 1024).toFixed(0)} KiB)\n`,
);
