import type { Completer } from './define-prompt.js';
import type { ToolContext } from './define-tool.js';

/** A resource or resource template (`orbit://models/{kind}`). Reads get the same context as tools. */
export interface ResourceDefinition {
  /** A fixed URI, or a template with `{name}` parts. */
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Concrete resources to list (only for fixed URIs or small known sets). */
  list?(ctx: ToolContext): Promise<{ uri: string; name: string; title?: string; description?: string }[]>;
  /** Completers for the template's `{name}` parts (completion/complete). */
  complete?: Readonly<Record<string, Completer>>;
  /**
   * A `mimeType` in the reply overrides the resource's (media files differ by type); `_meta` goes
   * out with the contents (a view's `ui` metadata: the origins it may load from).
   */
  read(params: Record<string, string>, ctx: ToolContext): Promise<ResourceBody>;
}

export type ResourceBody = ({ text: string } | { blob: string }) & {
  mimeType?: string;
  _meta?: Record<string, unknown>;
};

export function defineResource(resource: ResourceDefinition): ResourceDefinition {
  return resource;
}

/** Matches a URI against a template; returns the named parts, or undefined. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    // The last part may contain slashes (model ids like `openai/gpt`).
    return '(.+?)';
  });
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
}
