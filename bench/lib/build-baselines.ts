import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';

import { TMP } from './paths.js';

/**
 * The options scripts/build.ts uses for dist/orbit-mcp.js, repeated here because that script
 * builds on import. Keep the two in step: the start-up ratio is only fair if both are packaged alike.
 */
const SAME_AS_ORBIT: BuildOptions = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  chunkNames: 'chunks/[name]-[hash]',
  banner: {
    js: "import { createRequire as __orbitRequire } from 'node:module'; const require = __orbitRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

export interface Baselines {
  /** The one-tool stdio server, bundled like orbit-mcp. */
  bundled: string;
  /** The same source transpiled file by file, loading the SDK and zod from node_modules. */
  unbundled: string;
  /** The one-tool server over Streamable HTTP, bundled like orbit-mcp. */
  http: string;
}

export async function buildBaselines(): Promise<Baselines> {
  await rm(TMP, { recursive: true, force: true });
  const entries = {
    'minimal-server': 'bench/baseline/minimal-server.ts',
    'minimal-http-server': 'bench/baseline/minimal-http-server.ts',
  };
  await build({ ...SAME_AS_ORBIT, entryPoints: entries, outdir: join(TMP, 'bundled') });
  // Not bundled: each file transpiled alone, imports left to Node's resolver (bench/.tmp sits
  // inside the project, so node_modules is found the usual way).
  await build({
    entryPoints: ['bench/baseline/minimal-server.ts', 'bench/baseline/echo.ts'],
    outdir: join(TMP, 'unbundled'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  return {
    bundled: join(TMP, 'bundled', 'minimal-server.js'),
    unbundled: join(TMP, 'unbundled', 'minimal-server.js'),
    http: join(TMP, 'bundled', 'minimal-http-server.js'),
  };
}
