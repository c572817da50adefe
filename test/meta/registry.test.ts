import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { resources } from '../../resources/index.js';
import {
  areasShipped,
  manifestFor,
  packageDescription,
  replaceBlock,
  toolTable,
} from '../../scripts/docs.js';
import { TOOLSETS, type Toolset } from '../../src/config.js';
import { catalogEntry } from '../../src/mcp/catalog.js';
import { toolListing } from '../../src/mcp/listing.js';
import { toolCatalog } from '../../tools/index.js';

const registrySource = readFileSync('tools/index.ts', 'utf8');
const tools = await toolCatalog.loadAll();

function listTokens(toolsets: readonly Toolset[]): { tokens: number; count: number } {
  const listed = toolCatalog.enabled(toolsets, false).map((entry) => entry.listing);
  return { tokens: encode(JSON.stringify({ tools: listed })).length, count: listed.length };
}

describe('tool registry', () => {
  it('has unique snake_case names', () => {
    const names = tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  it('keeps each tool in tools/<area>/<name>.ts, registered under that name', () => {
    for (const tool of tools) {
      const match = new RegExp(`${tool.name}: \\(\\) => import\\('\\./([a-z_]+)/${tool.name}\\.js'\\)`).exec(
        registrySource,
      );
      expect(match, `tools/index.ts imports ${tool.name}`).not.toBeNull();
      expect(existsSync(join('tools', match![1]!, `${tool.name}.ts`))).toBe(true);
    }
  });

  it('gives every tool a title, a short description, a known toolset and complete annotations', () => {
    for (const tool of tools) {
      expect(tool.title.length, tool.name).toBeGreaterThan(2);
      expect(tool.description.length, tool.name).toBeGreaterThan(30);
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(240);
      expect(Object.keys(TOOLSETS)).toContain(tool.toolset);
      const a = tool.annotations;
      for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof a[key], `${tool.name}.${key}`).toBe('boolean');
      }
      if (a.readOnlyHint) expect(a.destructiveHint, tool.name).toBe(false);
    }
  });

  it('says what each paid call cost, so the spend budget can add it up', () => {
    for (const tool of tools) {
      const spends = Object.values(tool.operations).some((op) => op.nature === 'spend');
      expect(spends ? typeof tool.cost?.spent : 'function', tool.name).toBe('function');
    }
  });

  it('names the read that shows what a paid call did, said instead of calling again when its result is unusable', () => {
    for (const tool of tools) {
      const spends = Object.values(tool.operations).some((op) => op.nature === 'spend');
      expect(spends ? typeof tool.check : 'function', tool.name).toBe('function');
    }
  });

  it('derives honest hints from what each operation does, and pairs read and write halves', () => {
    for (const tool of tools) {
      const ops = Object.values(tool.operations);
      const a = tool.annotations;
      expect(a.readOnlyHint, tool.name).toBe(ops.every((op) => op.nature === 'read'));
      expect(a.destructiveHint, tool.name).toBe(ops.some((op) => op.nature === 'delete'));
      if (tool.name.endsWith('_read')) expect(a.readOnlyHint, tool.name).toBe(true);
      if (tool.name.endsWith('_write'))
        expect(
          ops.some((op) => op.nature === 'read'),
          tool.name,
        ).toBe(false);
      if (tool.paired) {
        // The operation argument lists exactly the declared operations.
        const operation = toolListing(tool).inputSchema.properties?.operation as
          | { enum?: string[] }
          | undefined;
        // Sorted copies: the listing is cached, and sorting it in place would change what tools/list sends.
        expect([...(operation?.enum ?? [])].sort(), tool.name).toEqual(Object.keys(tool.operations).sort());
      }
    }
  });

  it('lists input and output schemas as JSON Schema objects', () => {
    for (const tool of tools) {
      const listed = toolListing(tool);
      expect(listed.inputSchema.type, tool.name).toBe('object');
      expect(listed.outputSchema?.type, tool.name).toBe('object');
    }
  });

  it('spends under 200 tokens per tool in tools/list, output schemas included', () => {
    for (const toolsets of [toolCatalog.toolsetsFor(undefined), Object.keys(TOOLSETS) as Toolset[]]) {
      const { tokens, count } = listTokens(toolsets);
      expect(tokens / count).toBeLessThan(200);
    }
  });

  it('keeps the whole catalogue, every toolset on, within 7,000 tokens', () => {
    expect(listTokens(Object.keys(TOOLSETS) as Toolset[]).tokens).toBeLessThanOrEqual(7_000);
  });

  it('makes no toolset without tools a default', () => {
    const defaults = toolCatalog.toolsetsFor(undefined);
    expect(defaults.length).toBeGreaterThan(0);
    for (const toolset of defaults) {
      expect(TOOLSETS[toolset], toolset).toBe(true);
      expect(
        tools.some((tool) => tool.toolset === toolset),
        toolset,
      ).toBe(true);
    }
  });

  it('hides every tool that writes or spends in read-only mode', () => {
    const visible = toolCatalog.enabled(Object.keys(TOOLSETS) as Toolset[], true);
    expect(visible.length).toBeGreaterThan(0);
    for (const entry of visible)
      expect(tools.find((t) => t.name === entry.name)?.annotations.readOnlyHint).toBe(true);
  });

  it('has resources with unique templates under the platform scheme', () => {
    const templates = resources.map((r) => r.uriTemplate);
    expect(new Set(templates).size).toBe(templates.length);
  });
});

describe('generated documents', () => {
  it('tools/catalog.json matches the tool modules (run npm run generate)', () => {
    const catalog = JSON.parse(readFileSync('tools/catalog.json', 'utf8'));
    expect(catalog).toEqual(JSON.parse(JSON.stringify(tools.map(catalogEntry))));
  });

  it('manifest.json matches the registry', () => {
    const manifest = JSON.parse(readFileSync('manifest.json', 'utf8'));
    expect(manifest).toEqual(manifestFor(tools));
  });

  it('the README tool table matches the registry', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(replaceBlock(readme, 'tools', toolTable(tools))).toBe(readme);
  });

  it('the package description and the README claim the areas that ship, and only those', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.description).toBe(packageDescription(tools));
    const readme = readFileSync('README.md', 'utf8');
    expect(replaceBlock(readme, 'areas', areasShipped(tools), true)).toBe(readme);
    expect(packageDescription(tools)).toContain('chat with any model');
  });
});
