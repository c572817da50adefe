import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { InputError } from '../http/errors.js';
import type { Files, LocalFile, SavedFile } from '../mcp/define-tool.js';
import { URI_SCHEME } from '../word.js';
import { expandPath, insideRoots } from './roots.js';
import { mediaTypeOf } from './types.js';

export interface FilesConfig {
  /** Where outputs are saved. */
  outputDir: string;
  /** Working directory: a root when the client offers none. Defaults to process.cwd(). */
  cwd?: string;
}

/** The client's roots as directory paths, or undefined when the client offers none. */
export type RootsSource = () => Promise<string[] | undefined>;

export const mb = (bytes: number): string => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

/**
 * Files for one connection: local inputs only from inside the allowed roots (the client's MCP
 * roots when it offers them, else the working directory; the output directory always), outputs
 * under the output directory named by their content.
 */
export function createFiles(config: FilesConfig, clientRoots?: RootsSource): Files {
  const outputDir = config.outputDir;
  const roots = async (): Promise<string[]> => {
    const offered = await clientRoots?.().catch(() => undefined);
    // The client's roots replace the working directory; files this server wrote stay readable.
    if (offered) return [...offered, outputDir];
    return [config.cwd ?? process.cwd(), outputDir];
  };
  return {
    outputDir,
    roots,
    async read(path, { maxBytes, purpose }): Promise<LocalFile> {
      const allowed = await roots();
      const wanted = expandPath(path, allowed[0] ?? process.cwd());
      const info = await stat(wanted).catch(() => undefined);
      if (!info?.isFile()) {
        throw new InputError(`No file at ${wanted}.`, {
          fix: 'Check the path (absolute, or relative to the first root), or pass a URL.',
        });
      }
      const real = await insideRoots(wanted, allowed);
      if (!real) {
        throw new InputError(
          `${wanted} is outside the folders this server may read (${allowed.join(', ')}).`,
          {
            fix: 'Move the file into one of those folders, add its folder as a root in the client, or pass a public URL.',
          },
        );
      }
      if (info.size > maxBytes) {
        throw new InputError(
          `${basename(real)} is ${mb(info.size)}; ${purpose} takes at most ${mb(maxBytes)} as an upload.`,
          {
            fix: 'Upload the file somewhere public and pass its https URL instead.',
          },
        );
      }
      const data = await readFile(real);
      return {
        path: real,
        name: basename(real),
        data,
        mimeType: mediaTypeOf(data, undefined, real).mimeType,
      };
    },
    async save(data, options = {}): Promise<SavedFile> {
      const type = mediaTypeOf(data, options.mimeType, options.name);
      const id = createHash('sha256').update(data).digest('hex').slice(0, 20);
      await mkdir(outputDir, { recursive: true });
      const path = join(outputDir, `${id}.${type.ext}`);
      // Same content, same name: saving twice writes once.
      const exists = await stat(path).then(
        (s) => s.size === data.length,
        () => false,
      );
      if (!exists) await writeFile(path, data);
      return { id, path, uri: `${URI_SCHEME}://media/${id}`, mimeType: type.mimeType, bytes: data.length };
    },
  };
}

/** A saved output by its id, for `orbit://media/{id}`. */
export async function findSaved(
  outputDir: string,
  id: string,
): Promise<{ path: string; mimeType: string } | undefined> {
  if (!/^[a-f0-9]{8,64}$/.test(id)) return undefined;
  const names = await readdir(outputDir).catch(() => [] as string[]);
  const name = names.find((entry) => entry.startsWith(`${id}.`));
  if (!name) return undefined;
  const path = join(outputDir, name);
  const head = await readFile(path).then((b) => b.subarray(0, 64));
  return { path, mimeType: mediaTypeOf(head, undefined, name).mimeType };
}

/** Saved outputs, newest first, for resource listings. */
export async function listSaved(outputDir: string, limit = 50): Promise<{ id: string; name: string }[]> {
  const names = await readdir(outputDir).catch(() => [] as string[]);
  const entries = await Promise.all(
    names
      .filter((name) => /^[a-f0-9]{20}\.[a-z0-9]+$/.test(name))
      .map(async (name) => ({ name, at: (await stat(join(outputDir, name))).mtimeMs })),
  );
  return entries
    .sort((a, b) => b.at - a.at)
    .slice(0, limit)
    .map(({ name }) => ({ id: name.split('.')[0] ?? name, name }));
}
