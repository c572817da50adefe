import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A client root URI (`file:///...`) as a directory path; other schemes are not local. */
export function rootPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** Expands `~`, resolves relative paths against the first root (or cwd). */
export function expandPath(path: string, base: string): string {
  const home = path === '~' || path.startsWith(`~${sep}`) || path.startsWith('~/');
  const expanded = home ? `${homedir()}${path.slice(1)}` : path;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded);
}

export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The real path (symlinks followed) when it lies inside one of the roots, else undefined. */
export async function insideRoots(path: string, roots: readonly string[]): Promise<string | undefined> {
  const real = await realpath(path);
  for (const root of roots) {
    const realRoot = await realpath(root).catch(() => resolve(root));
    if (isInside(real, realRoot)) return real;
  }
  return undefined;
}
