import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

/** This package's folder, from wherever this module runs (source, dist/lib, or the bundled bin). */
export function packageRoot(): string {
  if (found) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  found = dir;
  return found;
}
