import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundle } from '../../scripts/bundle.js';
import { TMP } from './paths.js';

export interface Baselines {
  /** The one-tool stdio server, bundled like orbit-mcp. */
  bundled: string;
  /** The same source transpiled file by file, loading the SDK and zod from node_modules. */
  unbundled: string;
  /** The one-tool server over Streamable HTTP (both eras), bundled like orbit-mcp. */
  http: string;
  /** A load process of the throughput benchmark. */
  loadWorker: string;
  /**
   * bench/lib/in-process.ts (orbit-mcp's server and an SDK client in one process) bundled as
   * dist/orbit-mcp.js is: the per-call figures measure the code that ships, not tsx's transform
   * of the sources (which, for one, names every closure it creates).
   */
  inProcess: string;
}

export async function buildBaselines(): Promise<Baselines> {
  await rm(TMP, { recursive: true, force: true });
  const entries = {
    'minimal-server': 'bench/baseline/minimal-server.ts',
    'minimal-http-server': 'bench/baseline/minimal-http-server.ts',
    'load-worker': 'bench/baseline/load-worker.ts',
  };
  // The same packaging as dist/orbit-mcp.js: the start-up ratio is only fair if both are packaged alike.
  for (const [name, source] of Object.entries(entries)) await bundle(name, source, join(TMP, 'bundled'));
  await bundle('in-process', 'bench/lib/in-process.ts', join(TMP, 'in-process'));
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
    loadWorker: join(TMP, 'bundled', 'load-worker.js'),
    inProcess: join(TMP, 'in-process', 'in-process.js'),
  };
}
