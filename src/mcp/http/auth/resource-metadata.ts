import type { IncomingMessage } from 'node:http';
import type { Target } from '../../define-tool.js';

/**
 * RFC 9728: the remote endpoint is an OAuth protected resource whose authorization server is
 * the platform itself, so an MCP client can discover it, register, sign the person in and send
 * the issued key as a bearer token.
 */

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const SCOPES = ['models.read', 'api.use'];

export function isResourceMetadataPath(pathname: string, mcpPath: string): boolean {
  return pathname === WELL_KNOWN || pathname === `${WELL_KNOWN}${mcpPath}`;
}

/** The origin clients reach this server at (the Host header was already checked against the allow-list). */
export function publicOrigin(req: IncomingMessage): string {
  const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  return `${proto}://${req.headers.host}`;
}

export function resourceMetadata(
  origin: string,
  mcpPath: string,
  target: Target,
): Record<string, unknown> | undefined {
  if (target.kind === 'none') return undefined;
  return {
    resource: `${origin}${mcpPath}`,
    authorization_servers: [target.baseUrl],
    bearer_methods_supported: ['header'],
    scopes_supported: SCOPES,
    resource_name: 'orbit-mcp',
    resource_documentation: `${target.baseUrl}/auth.md`,
  };
}

export function wwwAuthenticate(
  origin: string,
  mcpPath: string,
  target: Target,
  error?: 'invalid_token',
): string {
  const realm = `Bearer realm="orbit-mcp"${error ? `, error="${error}"` : ''}`;
  if (target.kind === 'none') return realm;
  return `${realm}, resource_metadata="${origin}${WELL_KNOWN}${mcpPath}", scope="${SCOPES.join(' ')}"`;
}
