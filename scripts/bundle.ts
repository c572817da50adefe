import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { rolldown } from 'rolldown';
import { BUILD_OPTIONS } from './build-options.js';

export interface Bundled {
  files: number;
  bytes: number;
}

/**
 * Bundles one entry the way dist/orbit-mcp.js ships (the start-up benchmark packages its baseline
 * with this same function, so the ratio compares code, not packaging).
 *
 * esbuild compiles and splits: code behind dynamic imports (each tool, the sandbox, the HTTP
 * transport) stays out of start-up. But it makes one chunk per distinct set of importers, and the
 * stdio start path came out as 20 small files; on Node 20 each costs the ESM loader a resolve,
 * read, compile and link (about 13 ms in all, measured against a 3-file start). Rolldown then
 * re-chunks esbuild's output into start-up groups, one for what the entry imports statically and
 * one for each of its dynamic imports in order (orbit-mcp's entry imports only Node's modules
 * statically, then what the compile cache needs, then the CLI), each group with what that import
 * imports statically. Everything else keeps esbuild's lazy chunks.
 */
export async function bundle(
  name: string,
  source: string,
  outdir: string,
  extra: Pick<BuildOptions, 'plugins'> = {},
): Promise<Bundled> {
  const stage = await mkdtemp(join(tmpdir(), 'orbit-bundle-'));
  try {
    const { metafile } = await build({
      ...BUILD_OPTIONS,
      ...extra,
      entryPoints: { [name]: source },
      outdir: stage,
      metafile: true,
    });
    const bundle = await rolldown({
      input: { [name]: join(stage, `${name}.js`) },
      platform: 'node',
      external: [/^node:/],
      logLevel: 'warn',
    });
    try {
      await bundle.write({
        dir: outdir,
        format: 'es',
        minify: true,
        chunkFileNames: 'chunks/[name]-[hash].js',
        codeSplitting: { groups: startGroups(metafile, name) },
      });
    } finally {
      await bundle.close();
    }
    return await measure(outdir);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** Of two groups that reach a module, the first listed takes it: the entry's own imports first. */
export function startGroups(metafile: Metafile, name: string) {
  const outputs = metafile.outputs;
  const path = Object.keys(outputs).find((file) => file.endsWith(`/${name}.js`));
  if (!path) throw new Error(`esbuild wrote no ${name}.js`);
  const staticClosure = (file: string, into = new Set<string>()) => {
    for (const imported of outputs[file]!.imports) {
      if (imported.kind !== 'import-statement' || imported.external || into.has(imported.path)) continue;
      into.add(imported.path);
      staticClosure(imported.path, into);
    }
    return into;
  };
  const lazy = outputs[path]!.imports.filter((i) => i.kind === 'dynamic-import' && !i.external);
  const taken = new Set<string>();
  const groups = [staticClosure(path), ...lazy.map((i) => staticClosure(i.path, new Set([i.path])))].map(
    (files) => {
      const own = new Set([...files].filter((file) => !taken.has(file)));
      for (const file of own) taken.add(file);
      return own;
    },
  );
  const matcher = (files: Set<string>) => {
    const absolute = new Set([...files].map((file) => resolve(file)));
    return (id: string) => absolute.has(id);
  };
  return groups
    .filter((files) => files.size > 0)
    .map((files, index) => ({ name: `${name}-${index === 0 ? 'boot' : 'start'}`, test: matcher(files) }));
}

async function measure(dir: string): Promise<Bundled> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  let bytes = 0;
  let files = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    files++;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}
