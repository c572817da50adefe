/**
 * The README's quick start works as written: its stdio snippet is read from the README itself (so
 * the test cannot drift from it), the placeholder path replaced by this checkout, and started the
 * way a desktop client starts it; then the first thing it suggests asking is asked. Also: every
 * JSON snippet parses, the README stays short, and the pages it links to (and the benchmark
 * table's markers) exist.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

const README = readFileSync('README.md', 'utf8');
const PLACEHOLDER = '/absolute/path/to/orbit-mcp';

/** The fenced JSON between the quickstart markers. */
function quickStart(): { command: string; args: string[]; env?: Record<string, string> } {
  const block = /<!-- quickstart:start -->\s*```json\n([\s\S]*?)```\s*<!-- quickstart:end -->/.exec(README);
  expect(block, 'the README has a quickstart block').not.toBeNull();
  const config = JSON.parse(block![1]!) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  return config.mcpServers.orbit!;
}

describe('the README quick start', () => {
  it('starts the server with the snippet as written and answers the first thing to ask', async () => {
    const server = quickStart();
    const output = mkdtempSync(join(tmpdir(), 'orbit-readme-'));
    expect(server.args.some((arg) => arg.startsWith(PLACEHOLDER))).toBe(true);
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args.map((arg) => arg.replace(PLACEHOLDER, process.cwd())),
      // What a desktop app gives a server: no platform configured, and the snippet's env if any.
      // Its images go to a temporary folder rather than the home folder's orbit-output.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ORBIT_OUTPUT_DIR: output,
        ...server.env,
      },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'readme-quick-start', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['models_list', 'image_generate']),
      );
      // "list the image models, then draw a lighthouse at dusk with one of them"
      const models = CallToolResultSchema.parse(
        await client.callTool({ name: 'models_list', arguments: { kind: 'image' } }),
      );
      expect(models.isError).toBeFalsy();
      const model = /sandbox\/[\w.-]+/.exec(JSON.stringify(models.content))?.[0];
      expect(model, 'an image model id in the list').toBeDefined();
      const image = CallToolResultSchema.parse(
        await client.callTool({
          name: 'image_generate',
          arguments: { model, prompt: 'a lighthouse at dusk' },
        }),
      );
      expect(image.isError, JSON.stringify(image.content)).toBeFalsy();
      expect(image.content.some((part) => part.type === 'image' || part.type === 'resource_link')).toBe(true);
    } finally {
      await client.close();
      rmSync(output, { recursive: true, force: true });
    }
  });

  it('opens with the two commands, then the quick start, and has a Troubleshooting section', () => {
    const sections = [...README.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(sections[0]).toBe('Quick start (two minutes)');
    expect(sections).toContain('Troubleshooting');
    expect(README.indexOf('npm install && npm run demo')).toBeLessThan(README.indexOf('## Quick start'));
    expect(README.split('\n').length).toBeLessThanOrEqual(400);
  });

  it('has only JSON snippets that parse', () => {
    const snippets = [...README.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    for (const snippet of snippets) expect(() => JSON.parse(snippet), snippet).not.toThrow();
  });

  it('links only to pages that exist, and the benchmark table keeps its markers', () => {
    const links = [...README.matchAll(/\]\((docs\/[\w.-]+\.md)(?:#[\w-]+)?\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(existsSync(link), link).toBe(true);
    const bench = readFileSync('docs/benchmarks.md', 'utf8');
    expect(bench).toContain('<!-- bench:start -->');
    expect(bench).toContain('<!-- bench:end -->');
    expect(readFileSync('bench/run.ts', 'utf8')).toContain("'docs/benchmarks.md'");
  });

  it('names as many browser suites as the tests have', () => {
    const files = readdirSync('test', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const suites = files.reduce(
      (sum, file) =>
        sum + (readFileSync(join('test', file), 'utf8').match(/^describeWithBrowser\(/gm)?.length ?? 0),
      0,
    );
    const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    const said = /the (\w+) (?:[\w-]+ )?suites that drive a real browser/.exec(
      README.replace(/\s+/g, ' '),
    )?.[1];
    expect(said).toBe(words[suites]);
  });

  it('starts the server only from the checkout in its config snippets (the package is not on npm yet)', () => {
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string;
    const snippets = [...README.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!);
    for (const snippet of snippets)
      expect(snippet, `npx would fetch orbit-mcp ${version} from npm`).not.toMatch(/npx/);
    // The bundle is a folder: the entry file alone cannot run.
    expect(README).toContain('dist/chunks/');
  });

  it('says what each doctor exit code means', () => {
    const section = README.slice(README.indexOf('## Check a platform'), README.indexOf('## Troubleshooting'));
    expect(section).toMatch(/\*\*0\*\* every route was checked and none drifted/);
    expect(section).toMatch(/\*\*1\*\* a route drifted/);
    expect(section).toMatch(/\*\*2\*\* nothing drifted but a route could not be checked/);
    expect(section).toContain('--require');
  });
});
