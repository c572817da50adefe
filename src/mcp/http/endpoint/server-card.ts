import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { packageRoot } from '../../../package-root.js';
import { FIRST_MODERN } from '../../era-server.js';
import { publicOrigin } from '../auth/resource-metadata.js';

const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';

/** The draft schema of MCP Server Cards (SEP-1649, carried on as SEP-2127). */
const CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

interface ServerJson {
  name: string;
  title?: string;
  description: string;
  version: string;
  repository?: unknown;
  websiteUrl?: string;
}

let shipped: ServerJson | undefined;
/** server.json as the package ships it (the MCP Registry entry, written by npm run generate). */
function serverJson(): ServerJson {
  shipped ??= JSON.parse(readFileSync(join(packageRoot(), 'server.json'), 'utf8')) as ServerJson;
  return shipped;
}

/**
 * What a client or a registry crawler learns before connecting: the identity server.json gives,
 * and this endpoint as its Streamable HTTP remote with the protocol revisions it speaks.
 * Capabilities are left to negotiation, as the proposal asks.
 */
function serverCard(origin: string, mcpPath: string) {
  const { name, title, description, version, repository, websiteUrl } = serverJson();
  return {
    $schema: CARD_SCHEMA,
    name,
    ...(title ? { title } : {}),
    description,
    version,
    ...(repository ? { repository } : {}),
    ...(websiteUrl ? { websiteUrl } : {}),
    remotes: [
      {
        type: 'streamable-http',
        url: `${origin}${mcpPath}`,
        supportedProtocolVersions: [FIRST_MODERN, ...SUPPORTED_PROTOCOL_VERSIONS],
      },
    ],
  };
}

/**
 * The server card at `/.well-known/mcp/server-card.json`, or false for another path. Served without
 * credentials (it says nothing of a tenant), behind the Host check since it names the origin.
 */
export function answerServerCard(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  mcpPath: string,
): boolean {
  if (url.pathname !== SERVER_CARD_PATH) return false;
  res
    .writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
    })
    .end(JSON.stringify(serverCard(publicOrigin(req), mcpPath)));
  return true;
}
