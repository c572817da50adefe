import { readFileSync } from 'node:fs';

/** `name@version` of a package of this suite, as npm installed it (aliases report the real name). */
export function packageVersion(folder: string): string {
  const path = new URL(`../node_modules/${folder}/package.json`, import.meta.url);
  const { name, version } = JSON.parse(readFileSync(path, 'utf8')) as { name: string; version: string };
  return `${name}@${version}`;
}
