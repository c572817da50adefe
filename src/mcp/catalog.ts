import type { Tool } from '@modelcontextprotocol/server';
import { resolveToolsets, type Toolset, type ToolsetChoice } from '../config.js';
import { viewUri } from './apps.js';
import type { AnyTool, LongCall } from './define-tool.js';
import { toolListing } from './listing.js';

export type ToolLoader = () => Promise<{ default: AnyTool }>;

/**
 * What tools/list needs of one tool, precomputed by `npm run generate` into tools/catalog.json.
 * Start-up then builds no zod schema and imports no tool module: a tool's code loads on its first
 * call. A meta-test keeps the file equal to what the tool modules say.
 */
export interface CatalogEntry {
  name: string;
  toolset: Toolset;
  /** Neither writes nor spends: the only tools shown in read-only mode. */
  readOnly: boolean;
  listing: Tool;
  /** How its calls can take long (they report progress, or wait on a job): see define-tool.ts. */
  long?: LongCall;
  /** The view's `ui://` URI, added to the listing as `_meta.ui.resourceUri` for hosts that render views. */
  view?: string;
}

export function catalogEntry(tool: AnyTool): CatalogEntry {
  return {
    name: tool.name,
    toolset: tool.toolset,
    readOnly: tool.annotations.readOnlyHint,
    listing: toolListing(tool),
    ...(tool.long ? { long: tool.long } : {}),
    ...(tool.view ? { view: viewUri(tool.view) } : {}),
  };
}

export class ToolCatalog {
  private readonly loaded = new Map<string, Promise<AnyTool>>();
  private readonly withTools: ReadonlySet<Toolset>;

  constructor(
    readonly entries: readonly CatalogEntry[],
    private readonly loaders: Readonly<Record<string, ToolLoader>>,
  ) {
    this.withTools = new Set(entries.map((entry) => entry.toolset));
  }

  /** Whether any tool belongs to the toolset. */
  hasTools = (toolset: Toolset): boolean => this.withTools.has(toolset);

  /** The toolsets a configured choice turns on; without one, the defaults that have tools. */
  toolsetsFor(choice: ToolsetChoice | undefined): Toolset[] {
    return resolveToolsets(choice, this.hasTools);
  }

  /** Entries visible under a configuration: toolset on, and in read-only mode nothing that writes or spends. */
  enabled(toolsets: readonly Toolset[], readOnly: boolean): CatalogEntry[] {
    return this.entries.filter((entry) => toolsets.includes(entry.toolset) && (!readOnly || entry.readOnly));
  }

  /** The tool's module, imported once. */
  load(name: string): Promise<AnyTool> {
    let tool = this.loaded.get(name);
    if (!tool) {
      const loader = this.loaders[name];
      if (!loader) return Promise.reject(new Error(`No module is registered for tool "${name}".`));
      tool = loader().then((module) => module.default);
      this.loaded.set(name, tool);
    }
    return tool;
  }

  /** Every tool module (docs, meta-tests). */
  loadAll(): Promise<AnyTool[]> {
    return Promise.all(Object.keys(this.loaders).map((name) => this.load(name)));
  }
}
