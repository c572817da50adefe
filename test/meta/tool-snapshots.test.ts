/**
 * Every tool in the catalog has its snapshot file at test/tools/<area>/<tool>.test.ts (the same
 * area folder as its source, tools/<area>/<tool>.ts), with a happy and an isError reply written
 * inline, and no snapshot holds a sandbox secret. Multi-step flows live in test/e2e instead.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_KEY, SANDBOX_MANAGEMENT_TOKENS, SANDBOX_PEOPLE } from '../../src/sandbox/index.js';
import catalog from '../../tools/catalog.json' with { type: 'json' };

const registrySource = readFileSync('tools/index.ts', 'utf8');

/** The area folder tools/index.ts imports the tool from. */
function areaOf(tool: string): string | undefined {
  return new RegExp(`${tool}: \\(\\) => import\\('\\./([a-z_]+)/${tool}\\.js'\\)`).exec(registrySource)?.[1];
}

const snapshotFile = (tool: string) => join('test', 'tools', areaOf(tool) ?? '?', `${tool}.test.ts`);

const SECRETS = [
  SANDBOX_DEMO_KEY,
  ...Object.values(SANDBOX_MANAGEMENT_TOKENS),
  ...Object.values(SANDBOX_PEOPLE).flatMap((person) => [person.apiKey, person.session]),
];

describe('tool snapshot files', () => {
  it.each(catalog.map((entry) => entry.name))('%s has test/tools/<area>/<tool>.test.ts', (tool) => {
    expect(areaOf(tool), `tools/index.ts imports ${tool}`).toBeDefined();
    expect(existsSync(snapshotFile(tool)), snapshotFile(tool)).toBe(true);
  });

  it.each(catalog.map((entry) => entry.name))(
    '%s snapshots a call of itself, a happy reply and an isError reply, with no secret',
    (tool) => {
      const source = readFileSync(snapshotFile(tool), 'utf8');
      expect(source).toMatch(new RegExp(`\\.snap\\(\\s*'${tool}'`));
      // Written snapshots only: an empty toMatchInlineSnapshot() would pass by writing itself.
      expect(source).not.toMatch(/toMatchInlineSnapshot\(\s*\)/);
      const snapshots = source.split('toMatchInlineSnapshot(`').slice(1);
      expect(snapshots.some((s) => s.includes('"isError": true'))).toBe(true);
      expect(snapshots.some((s) => !s.includes('"isError": true'))).toBe(true);
      for (const secret of SECRETS) expect(source.includes(secret), `${tool} holds a secret`).toBe(false);
      // A redacted secret may only stand where the request carried it, never in a reply.
      const redacted = source.split('\n').filter((line) => line.includes('<secret:'));
      for (const line of redacted) expect(line).toMatch(/"(authorization|cookie|x-api-key)": "/);
    },
  );

  it('has no snapshot file for a tool the catalog does not have', () => {
    const names = new Set(catalog.map((entry) => entry.name));
    const stray = readdirSync(join('test', 'tools'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((dir) =>
        readdirSync(join('test', 'tools', dir.name))
          .filter((file) => file.endsWith('.test.ts'))
          .map((file) => ({ area: dir.name, tool: file.replace(/\.test\.ts$/, '') })),
      )
      .filter(({ area, tool }) => !names.has(tool) || areaOf(tool) !== area);
    expect(stray).toEqual([]);
  });
});
