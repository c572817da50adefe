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

/** Expands `~`, resolves relative paths against `base`. */
export function expandPath(path: string, base: string): string {
  const home = path === '~' || path.startsWith(`~${sep}`) || path.startsWith('~/');
  const expanded = home ? `${homedir()}${path.slice(1)}` : path;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded);
}

export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Kernel and device trees: never a root, never read, whatever a client or an operator names. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev'];

/**
 * Why a folder may not serve as a root, or undefined when it may. `/` and the home folder itself
 * (or anything that contains it) would open every file of the person, `/proc` and friends hold the
 * process's environment and devices.
 */
export function forbiddenRoot(real: string, home = homedir()): string | undefined {
  if (real === resolve('/') || real === '') return 'the file system root';
  if (isInside(home, real)) return 'the home folder itself (name a folder inside it)';
  if (SYSTEM_TREES.some((tree) => isInside(real, tree))) return 'a system folder';
  return undefined;
}

/** The real paths of the usable roots; forbidden or missing ones are left out and reported. */
export async function usableRoots(
  roots: readonly string[],
  onRefused?: (root: string, reason: string) => void,
): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) {
    const real = await realpath(root).catch(() => undefined);
    if (real === undefined) continue;
    const reason = forbiddenRoot(real);
    if (reason) onRefused?.(root, reason);
    else if (!out.includes(real)) out.push(real);
  }
  return out;
}
