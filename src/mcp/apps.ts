import {
  CLIENT_CAPABILITIES_META_KEY,
  type Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { isRecord } from '../lang.js';
import { URI_SCHEME } from '../word.js';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): a tool names an HTML view in
 * `_meta.ui.resourceUri`, and a host that renders views shows it beside the result.
 */
const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The views this server ships, one `views/<name>.ts` each, built into `dist/views/<name>.html`. */
export const VIEWS = ['gallery', 'player', 'payment', 'usage', 'scores', 'attestation'] as const;
export type ViewName = (typeof VIEWS)[number];

export const viewUri = (view: ViewName): string => `ui://${URI_SCHEME}/${view}`;

/**
 * Whether the caller's client renders views (per request on 2026-07-28, per connection on 2025).
 * Clients without the extension get today's listing, byte for byte: the `_meta` lines cost every
 * turn's tokens and mean nothing to them.
 */
export function rendersViews(server: Server, ctx: ServerContext): boolean {
  // The envelope's keys are hidden from the SDK's public types; it is the client's own claim.
  const envelope: Record<string, unknown> = { ...ctx.mcpReq.envelope };
  const declared = envelope[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities();
  const extensions = isRecord(declared) && isRecord(declared.extensions) ? declared.extensions : undefined;
  const ui = extensions?.[APPS_EXTENSION];
  if (!isRecord(ui)) return false;
  // A host lists the view formats it renders; one that lists none is taken to render the standard one.
  return !Array.isArray(ui.mimeTypes) || ui.mimeTypes.includes(APP_MIME_TYPE);
}

/** A tool's listing with its view named, for hosts that render views. */
export function withView(listing: Tool, resourceUri: string | undefined): Tool {
  return resourceUri ? { ...listing, _meta: { ...listing._meta, ui: { resourceUri } } } : listing;
}
