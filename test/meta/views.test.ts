/**
 * MCP Apps views: every view is named by a tool and built from views/<name>.ts, and hosts that
 * render views pay only the `_meta` lines in tools/list.
 */
import { existsSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { resources } from '../../resources/index.js';
import { VIEWS, viewUri, withView } from '../../src/mcp/apps.js';
import { toolCatalog } from '../../tools/index.js';

const tokens = (tools: unknown[]) => encode(JSON.stringify({ tools })).length;

describe('views', () => {
  it('names each of the six views from at least one tool, and each has its source file', () => {
    const named = new Set(toolCatalog.entries.map((entry) => entry.view).filter(Boolean));
    expect([...named].sort()).toEqual(VIEWS.map(viewUri).sort());
    for (const view of VIEWS) expect(existsSync(`views/${view}.ts`), view).toBe(true);
  });

  it('lists the views as ui:// resources of the MCP Apps type', async () => {
    const view = resources.find((resource) => resource.uriTemplate.startsWith('ui://'))!;
    expect(view.mimeType).toBe('text/html;profile=mcp-app');
    expect((await view.list!({} as never)).map((item) => item.uri)).toEqual(VIEWS.map(viewUri));
  });

  it('adds only `_meta.ui.resourceUri` to a listing, at most 15 tokens a tool', () => {
    const plain = toolCatalog.entries.map((entry) => entry.listing);
    const shown = toolCatalog.entries.map((entry) => withView(entry.listing, entry.view));
    for (const [index, listing] of shown.entries()) {
      const { ui, ...otherMeta } = listing._meta ?? {};
      const { _meta, ...rest } = listing;
      expect(Object.keys(otherMeta).length > 0 ? { ...rest, _meta: otherMeta } : rest).toEqual(plain[index]);
      const view = toolCatalog.entries[index]!.view;
      expect(ui).toEqual(view ? { resourceUri: view } : undefined);
    }
    const named = shown.filter((listing) => listing._meta?.ui).length;
    const added = tokens(shown) - tokens(plain);
    console.info(
      `tools/list, every toolset on: ${tokens(plain)} tokens; ${tokens(shown)} for hosts that render views`,
    );
    expect(added).toBeLessThanOrEqual(15 * named);
  });

  it('keeps the catalogue, every toolset on and views shown, within 7,000 tokens', () => {
    const shown = toolCatalog.entries.map((entry) => withView(entry.listing, entry.view));
    expect(tokens(shown)).toBeLessThanOrEqual(7_000);
  });
});
