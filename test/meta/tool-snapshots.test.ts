/**
 * Every tool in the catalog has its snapshot file at test/tools/<area>/<tool>.test.ts (the same
 * area folder as its source, tools/<area>/<tool>.ts), with a happy and an isError reply written
 * inline, and no snapshot holds a sandbox secret. Beside it, `<tool>.<aspect>.test.ts` files test
 * one aspect of the tool each (chat.tool-loop.test.ts); nothing else lives in a tool folder.
 * Flows across tools and concerns of the server live in test/e2e.
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

/** `<tool>.test.ts`, or `<tool>.<aspect>.test.ts` with a lowercase, hyphenated aspect. */
const TOOL_TEST_FILE = /^([a-z0-9_]+)(?:\.([a-z0-9]+(?:-[a-z0-9]+)*))?\.test\.ts$/;

/** Why a test file in test/tools/<area>/ is out of place, or undefined when it belongs there. */
function misplaced(area: string, file: string, names: Set<string>): string | undefined {
  const match = TOOL_TEST_FILE.exec(file);
  if (!match) return 'not named <tool>.test.ts or <tool>.<aspect>.test.ts';
  const tool = match[1]!;
  if (!names.has(tool)) return `no tool named ${tool}`;
  if (areaOf(tool) !== area) return `${tool} is in tools/${areaOf(tool)}/`;
  return undefined;
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

  it("has no test file in a tool folder but a tool's snapshots and its aspects", () => {
    const names = new Set(catalog.map((entry) => entry.name));
    const stray = readdirSync(join('test', 'tools'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((dir) =>
        readdirSync(join('test', 'tools', dir.name))
          .filter((file) => file.endsWith('.test.ts'))
          .map((file) => ({ file: `${dir.name}/${file}`, why: misplaced(dir.name, file, names) })),
      )
      .filter(({ why }) => why !== undefined);
    expect(stray).toEqual([]);
  });

  it.each([
    ['text', 'chat.test.ts', undefined],
    ['text', 'chat.tool-loop.test.ts', undefined],
    ['media', 'image_generate.saved-files.test.ts', undefined],
    ['text', 'chat-controls.test.ts', 'not named <tool>.test.ts or <tool>.<aspect>.test.ts'],
    ['text', 'chat.Controls.test.ts', 'not named <tool>.test.ts or <tool>.<aspect>.test.ts'],
    ['text', 'chat.tool.loop.test.ts', 'not named <tool>.test.ts or <tool>.<aspect>.test.ts'],
    ['text', 'talk.controls.test.ts', 'no tool named talk'],
    ['media', 'chat.controls.test.ts', 'chat is in tools/text/'],
  ])('judges %s/%s: %s', (area, file, why) => {
    expect(misplaced(area, file, new Set(catalog.map((entry) => entry.name)))).toBe(why);
  });
});
