import { InputError } from '../errors.js';
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

type ResourceBody = ({ text: string } | { blob: string }) & {
  mimeType?: string;
  _meta?: Record<string, unknown>;
};

export function defineResource(resource: ResourceDefinition): ResourceDefinition {
  return resource;
}

/** Longest URI `resources/read` takes: ids and model names are far shorter. */
export const MAX_RESOURCE_URI_LENGTH = 2_048;

/** A template cut at its `{name}` parts: `literals` has one more entry than `names`. */
interface TemplateParts {
  literals: string[];
  names: string[];
}
const parsedTemplates = new Map<string, TemplateParts>();

function templateParts(template: string): TemplateParts {
  let parts = parsedTemplates.get(template);
  if (!parts) {
    // `split` with a capturing group alternates literal, name, literal, ...
    const pieces = template.split(/\{(\w+)\}/);
    parts = {
      literals: pieces.filter((_piece, index) => index % 2 === 0),
      names: pieces.filter((_piece, index) => index % 2 === 1),
    };
    parsedTemplates.set(template, parts);
  }
  return parts;
}

/**
 * Matches a URI against a template; returns the named parts (percent-decoded), or undefined.
 * Each part is cut at the first occurrence of the literal that follows it (the first `/` ends a
 * kind) and the last part takes the rest, slashes and all (model ids like `openai/gpt`); no part
 * is empty. A scan with `startsWith`/`indexOf`, never a backtracking regex: linear in the URI.
 * A malformed `%` escape is the caller's bad input (an InputError).
 */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const { literals, names } = templateParts(template);
  const head = literals[0] ?? '';
  const tail = literals.at(-1) ?? '';
  if (names.length === 0) return uri === head ? {} : undefined;
  if (!uri.startsWith(head) || !uri.endsWith(tail) || uri.length < head.length + tail.length)
    return undefined;
  const end = uri.length - tail.length;
  const values: string[] = [];
  let at = head.length;
  for (let index = 0; index < names.length; index++) {
    const next = index === names.length - 1 ? undefined : (literals[index + 1] ?? '');
    const stop = next === undefined ? end : uri.indexOf(next, at + 1);
    if (stop <= at || stop > end) return undefined;
    values.push(uri.slice(at, stop));
    at = stop + (next?.length ?? 0);
  }
  return Object.fromEntries(names.map((name, index) => [name, decodePart(values[index] ?? '', uri)]));
}

function decodePart(part: string, uri: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new InputError(`The resource URI ${uri.slice(0, 200)} has a malformed % escape.`, {
      fix: 'Write each % in a URI as %25, or percent-encode the id as encodeURIComponent does.',
    });
  }
}
