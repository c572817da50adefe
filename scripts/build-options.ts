import type { BuildOptions } from 'esbuild';

/**
 * How esbuild compiles the bin before bundle.ts re-chunks it (the start-up benchmark's baseline
 * goes through the same two steps). One bundled entry loads far fewer files than node_modules
 * would; code behind dynamic imports (sandbox, HTTP transport, undici, each tool) becomes chunks
 * loaded on demand.
 */
export const BUILD_OPTIONS: BuildOptions = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  chunkNames: 'chunks/[name]-[hash]',
  // Some dependencies are CommonJS and call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __orbitRequire } from 'node:module'; const require = __orbitRequire(import.meta.url);",
  },
  logLevel: 'warning',
};
