import type { Context } from 'hono';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord } from '../util.js';
import {
  CLIENT_ID_PREFIX,
  CODE_TTL_MS,
  grants,
  type IssuedCode,
  issueCode,
  issueKey,
  type OAuthClient,
  redeemCode,
  SANDBOX_USER,
  type SpendCap,
  secret,
} from './grants.js';
import { bodyParams, OAuthError, required } from './http.js';
import { checkChallenge, checkRedirectUri, normaliseScope } from './rules.js';

/** The JSON side: code exchanges, dynamic registration, and the downstream key code. */

type C = Context<SandboxEnv>;
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const userIdOf = (code: IssuedCode) =>
  code.accountId === SANDBOX_USER.account ? SANDBOX_USER.id : `user_${code.accountId}`;

/** `POST /api/v1/auth/keys`: shortcut (and downstream) code → API key. */
export function exchangeShortcut(c: C, ctx: SandboxContext): Response {
  const params = bodyParams(c);
  if (params.grant_type !== undefined && params.grant_type !== 'authorization_code') {
    throw new OAuthError(400, 'unsupported_grant_type', 'grant_type, when sent, must be authorization_code.');
  }
  const code = redeemCode(ctx, required(params, 'code'), required(params, 'code_verifier'), {
    flows: ['shortcut', 'downstream'],
  });
  const key = issueKey(ctx, code);
  return c.json(
    { key, access_token: key, token_type: 'Bearer', scope: code.scope, user_id: userIdOf(code) },
    200,
    NO_STORE,
  );
}

/** `POST /oauth/token`: the standard flow's exchange; every parameter is required. */
export function exchangeToken(c: C, ctx: SandboxContext): Response {
  const params = bodyParams(c);
  const grantType = required(params, 'grant_type');
  if (grantType !== 'authorization_code')
    throw new OAuthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code.');
  const clientId = required(params, 'client_id');
  const redirectUri = required(params, 'redirect_uri');
  const code = required(params, 'code');
  const verifier = required(params, 'code_verifier');
  if (!grants(ctx).clients.has(clientId)) throw new OAuthError(401, 'invalid_client', 'Unknown client_id.');
  const redirect = checkRedirectUri(redirectUri);
  if (!redirect.ok) throw new OAuthError(400, 'invalid_grant', `redirect_uri: ${redirect.reason}.`);
  const issued = redeemCode(ctx, code, verifier, {
    flows: ['standard'],
    clientId,
    redirectUri: redirect.value,
  });
  const key = issueKey(ctx, issued);
  return c.json({ access_token: key, token_type: 'Bearer', scope: issued.scope }, 200, NO_STORE);
}

const metadataError = (description: string) => new OAuthError(400, 'invalid_client_metadata', description);

function stringList(
  body: Record<string, unknown>,
  name: string,
  fallback: string[],
  allowed: string[],
): string[] {
  const value = body[name] ?? fallback;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw metadataError(`${name} must be an array of strings.`);
  const bad = value.filter((item) => !allowed.includes(item));
  if (bad.length)
    throw metadataError(`${name}: ${bad.join(', ')} not supported; only ${allowed.join(', ')}.`);
  return value;
}

function httpsUri(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== 'string' ||
    !value.startsWith('https://') ||
    value.includes('#') ||
    !URL.canParse(value)
  ) {
    throw metadataError(`${name} must be an HTTPS URL without a fragment.`);
  }
  return value;
}

/** `POST /oauth/register`: dynamic registration of a public PKCE client (no secret is ever issued). */
export function registerClient(c: C, ctx: SandboxContext): Response {
  const body = c.get('bodyJson');
  if (!isRecord(body)) throw metadataError('The body must be a JSON object (spec 1 §2.3).');
  if (typeof body.client_name !== 'string' || !body.client_name.trim())
    throw metadataError('client_name is required.');
  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0)
    throw new OAuthError(400, 'invalid_redirect_uri', 'redirect_uris must list at least one URI.');
  const redirectUris = uris.map((uri) => {
    const checked = checkRedirectUri(typeof uri === 'string' ? uri : undefined);
    if (!checked.ok) throw new OAuthError(400, 'invalid_redirect_uri', `${String(uri)}: ${checked.reason}.`);
    return checked.value;
  });
  const method = body.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw metadataError('Only public PKCE clients exist: token_endpoint_auth_method must be none.');
  let scope: string | undefined;
  if (typeof body.scope === 'string') {
    const checked = normaliseScope(body.scope);
    if (!checked.ok) throw new OAuthError(400, 'invalid_scope', checked.reason);
    scope = checked.value;
  }
  const client: OAuthClient = {
    client_id: `${CLIENT_ID_PREFIX}${secret(12)}`,
    client_name: body.client_name.trim().slice(0, 100),
    redirect_uris: redirectUris,
    grant_types: stringList(body, 'grant_types', ['authorization_code'], ['authorization_code']),
    response_types: stringList(body, 'response_types', ['code'], ['code']),
    token_endpoint_auth_method: 'none',
    client_uri: httpsUri(body, 'client_uri'),
    logo_uri: httpsUri(body, 'logo_uri'),
    scope,
    client_id_issued_at: Math.floor(ctx.now() / 1000),
  };
  grants(ctx).clients.set(client.client_id, client);
  return c.json(client, 201, NO_STORE);
}

const PERIODS = ['daily', 'weekly', 'monthly'] as const;

/** `POST /api/v1/auth/keys/code`: an unrestricted key of a signed-in user mints a one-time code for a local app. */
export function downstreamCode(c: C, ctx: SandboxContext): Response {
  const presented = c.req.header('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (!presented)
    throw new OAuthError(401, 'invalid_token', 'Send the source API key as `Authorization: Bearer <key>`.');
  const source = ctx.state.getKey(presented);
  if (!source) throw new OAuthError(401, 'invalid_token', 'The source API key is not valid.');
  if (source.grant)
    throw new OAuthError(403, 'access_denied', 'Keys issued by OAuth cannot create further key codes.');
  if (source.dailyRequestLimit !== undefined || source.dailyUsdLimit !== undefined) {
    throw new OAuthError(
      403,
      'access_denied',
      'Source keys with spend, request, model, provider, origin or redaction restrictions cannot create key codes.',
    );
  }
  const params = bodyParams(c);
  const redirect = checkRedirectUri(params.redirect_uri ?? params.callback_url);
  if (!redirect.ok) throw new OAuthError(400, 'invalid_request', `redirect_uri: ${redirect.reason}.`);
  const challenge = checkChallenge(params.code_challenge, params.code_challenge_method);
  if (!challenge.ok) throw new OAuthError(400, 'invalid_request', challenge.reason);
  const scope = normaliseScope(params.scope);
  if (!scope.ok) throw new OAuthError(400, 'invalid_scope', scope.reason);
  let spendCap: SpendCap | undefined;
  if (params.limit !== undefined) {
    const usd = Number(params.limit);
    const period = PERIODS.find((p) => p === (params.usage_limit_type ?? 'monthly'));
    if (!Number.isFinite(usd) || usd < 0)
      throw new OAuthError(400, 'invalid_request', 'limit must be a number of USD >= 0.');
    if (!period)
      throw new OAuthError(400, 'invalid_request', 'usage_limit_type must be daily, weekly or monthly.');
    spendCap = { usd, period };
  }
  let keyExpiresAt: number | undefined;
  if (params.expires_at !== undefined) {
    const raw = params.expires_at;
    keyExpiresAt = /^\d+$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
    if (!Number.isFinite(keyExpiresAt) || keyExpiresAt <= ctx.now()) {
      throw new OAuthError(
        400,
        'invalid_request',
        'expires_at must be a future time (Unix seconds or ISO 8601).',
      );
    }
  }
  // A downstream key never outlives its source; only OAuth-issued keys expire in the sandbox, and those cannot mint codes.
  const clientName =
    params.client_name ??
    params.app_name ??
    params.name ??
    c.req.header('x-title') ??
    c.req.header('x-app-name') ??
    'A local app';
  const code = issueCode(ctx, {
    flow: 'downstream',
    clientName: clientName.slice(0, 100),
    redirectUri: redirect.value,
    challenge: challenge.value,
    scope: scope.value,
    accountId: source.account.id,
    label: params.key_label ?? params.key_name,
    spendCap,
    keyExpiresAt,
  });
  return c.json(
    { code, expires_in: CODE_TTL_MS / 1000, redirect_uri: redirect.value, scope: scope.value },
    201,
    NO_STORE,
  );
}
