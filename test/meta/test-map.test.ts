/**
 * test/README.md is the map a newcomer walks: it names every folder of test/ and of test/e2e and
 * every helper; no test file sits at the top of test/e2e (each is in the folder of its concern);
 * and every test/… path a doc, a comment or a script names exists, so a moved test leaves no
 * stale pointer behind.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAP = readFileSync('test/README.md', 'utf8');

const folders = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => entry.name);

/** Text files of the project that may name a test path (dependencies and dot folders left out). */
function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    if (entry.isDirectory()) return textFiles(path);
    return /\.(md|ts|mjs|json|sh|py)$/.test(entry.name) ? [path] : [];
  });
}

const SOURCES = [
  'README.md',
  'package.json',
  'vitest.config.ts',
  '.ci/run',
  ...['docs', 'src', 'tools', 'test', 'scripts', 'bench'].flatMap(textFiles),
].filter((file) => file !== 'test/meta/test-map.test.ts');

/** `test/…` paths a text names; placeholders (`<area>`, `…`) and globs of folders are not paths. */
function testPathsIn(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])test\/[^\s`'"()[\],;|]*/g)]
    .map((match) => match[0].replace(/[.:]+$/, ''))
    .filter((path) => !/[<>{}$…]/.test(path) && !dirname(path).includes('*'));
}

/** Whether a path exists; a `*` in its last part matches any characters. */
function exists(path: string): boolean {
  if (!path.includes('*')) return existsSync(path);
  const literal = (part: string) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^${basename(path).split('*').map(literal).join('.*')}$`);
  return existsSync(dirname(path)) && readdirSync(dirname(path)).some((name) => pattern.test(name));
}

describe('the map of the tests (test/README.md)', () => {
  it('names every folder of test/ and of test/e2e, and every helper', () => {
    const named = [
      ...folders('test').map((folder) => `\`${folder}/`),
      ...folders('test/e2e').map((folder) => `\`e2e/${folder}/\``),
      ...readdirSync('test/helpers').map((file) => `helpers/${file}`),
    ];
    expect(named.filter((name) => !MAP.includes(name))).toEqual([]);
  });

  it('keeps no test file at the top of test/e2e: each is in the folder of its concern', () => {
    expect(readdirSync('test/e2e').filter((file) => file.endsWith('.ts'))).toEqual([]);
  });
});

describe('test paths named in docs, comments and scripts', () => {
  it('reads paths, globs included, and leaves placeholders alone', () => {
    expect(
      testPathsIn(
        'see `test/e2e/http/endpoint.test.ts`, test/e2e/security/*.test.ts. And test/tools/<area>/, test/**/*.ts, test/….',
      ),
    ).toEqual(['test/e2e/http/endpoint.test.ts', 'test/e2e/security/*.test.ts']);
    expect(exists('test/e2e/security/*.test.ts')).toBe(true);
    expect(exists('test/e2e/security-*.test.ts')).toBe(false);
  });

  it('all exist', () => {
    const stale = SOURCES.flatMap((file) =>
      testPathsIn(readFileSync(file, 'utf8'))
        .filter((path) => !exists(path))
        .map((path) => `${file}: ${path}`),
    );
    expect(stale).toEqual([]);
  });
});
