import { SANDBOX_WORD } from '../constants.js';
import { SCOPES } from './rules.js';

/** The discovery documents and the machine-facing auth guide (spec 1 §4.2). */

export function authorizationServerMetadata(base: string): Record<string, unknown> {
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...SCOPES],
    service_documentation: `${base}/auth.md`,
    resource_documentation: `${base}/auth.md`,
    [`x-${SANDBOX_WORD}-token-format`]: 'api_key',
    [`x-${SANDBOX_WORD}-oauth-shortcut-authorization_endpoint`]: `${base}/auth`,
    [`x-${SANDBOX_WORD}-oauth-shortcut-token_endpoint`]: `${base}/api/v1/auth/keys`,
    [`x-${SANDBOX_WORD}-oauth-shortcut-code_endpoint`]: `${base}/api/v1/auth/keys/code`,
  };
}

export function protectedResourceMetadata(base: string): Record<string, unknown> {
  return {
    resource: base,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: [...SCOPES],
    resource_documentation: `${base}/auth.md`,
  };
}

export function authGuide(base: string): string {
  return `# Getting an API key for an app

Apps get a dedicated API key through OAuth 2.0 authorization code with PKCE (S256 only).
The key is used as \`Authorization: Bearer <key>\` (or \`x-api-key\`) on every API route.
It spends from the approving user's balance, bounded by an optional app spend cap. No refresh
token exists: on \`401\` discard the key and ask the user to sign in again.

Discovery: \`GET ${base}/.well-known/oauth-authorization-server\`.

## Shortcut flow (local apps, CLIs, desktop tools)

1. Make a verifier (43..128 characters of \`A-Z a-z 0-9 - . _ ~\`) and its challenge
   (base64url of SHA-256). Listen on \`http://127.0.0.1:<port>/callback\`.
2. Open \`${base}/auth?callback_url=...&code_challenge=...&code_challenge_method=S256&scope=models.read%20api.use&state=...&client_name=...\`
   in the user's browser. The user approves or denies on the consent screen.
3. The browser comes back with \`code\` and \`state\` (or \`error=access_denied\`). Check \`state\`.
4. \`POST ${base}/api/v1/auth/keys\` with JSON or form \`{code, code_verifier}\`.
   Reply: \`{key, access_token, token_type: "Bearer", scope, user_id}\`.

## Standard flow (registered clients, MCP clients)

1. \`POST ${base}/oauth/register\` with \`{client_name, redirect_uris}\`; reply adds \`client_id\`.
2. \`GET ${base}/oauth/authorize?response_type=code&client_id&redirect_uri&scope&state&code_challenge&code_challenge_method=S256\`.
3. \`POST ${base}/oauth/token\` (form or JSON): \`grant_type=authorization_code, client_id, redirect_uri, code, code_verifier\`.
   Reply: \`{access_token, token_type: "Bearer", scope}\`.

## Downstream key code

An app holding an unrestricted key of a signed-in user can mint a one-time code for a local app:
\`POST ${base}/api/v1/auth/keys/code\` with \`Authorization: Bearer <key>\` and
\`{redirect_uri, code_challenge, key_label?, limit?, usage_limit_type?, expires_at?}\`. The local app
exchanges the code at \`/api/v1/auth/keys\`. OAuth-issued and restricted keys cannot mint codes.

## Rules

- Scopes: \`models.read\`, \`api.use\`; every request must include \`api.use\`.
- Redirect URIs: HTTPS, or loopback HTTP with an explicit port; no wildcards, fragments or
  credentials; exact match with the registered URI. Loopback hosts become \`127.0.0.1\`.
- Codes are single-use and expire after a minute. Errors: \`{error, error_description}\`
  (\`invalid_request\`, \`invalid_grant\`, \`invalid_client\`, \`invalid_scope\`, \`access_denied\`).
`;
}
