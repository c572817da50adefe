/**
 * `npm run build`: the bin bundled into dist/ (start-up is paid on every spawn; see bundle.ts), and
 * the library (`import { createOrbitServer } from 'orbit-mcp'`) compiled unbundled with its types
 * into dist/lib, so its dependencies stay real dependencies shared with the caller's.
 */
import { execFileSync } from 'node:child_process';
import { chmod, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { buildViews } from './build-views.js';
import { bundle } from './bundle.js';

/** Our servers pass their own JSON Schema validator; the SDK's default (Ajv) need not be loaded. */
const withoutAjv: Plugin = {
  name: 'sdk-shims-without-ajv',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: resolve('src/mcp/sdk-shims.ts'),
    }));
  },
};

await rm('dist', { recursive: true, force: true });
const { files, bytes } = await bundle('orbit-mcp', 'src/main.ts', 'dist', { plugins: [withoutAjv] });
await chmod('dist/orbit-mcp.js', 0o755);
process.stderr.write(`built dist/orbit-mcp.js (${files} files, ${(bytes / 1024).toFixed(0)} KiB)\n`);

const views = await buildViews('dist/views');
process.stderr.write(
  `built dist/views (${views.map((v) => `${v.name} ${(v.bytes / 1024).toFixed(0)} KiB`).join(', ')})\n`,
);

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.lib.json'], {
  stdio: 'inherit',
});
process.stderr.write('built dist/lib (the library, with types)\n');
