import { randomBytes } from 'node:crypto';
import { SANDBOX_WORD } from '../constants.js';
import type { KeyGrant } from '../state.js';
import type { SandboxContext } from '../types.js';
import { OAuthError } from './http.js';
import { capWindow } from './limits.js';
import { originsFor, VERIFIER_PATTERN, verifierMatches } from './rules.js';

/** OAuth clients, pending consents and authorization codes, kept in the sandbox state. */

export interface OAuthClient {
  client_id: string;
  client_name: string;
  /** Canonical forms (see checkRedirectUri), compared exactly. */
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  client_uri?: string;
  logo_uri?: string;
  scope?: string;
  client_id_issued_at: number;
}

export type Flow = 'shortcut' | 'standard' | 'downstream';
export type SpendCap = { usd: number; period: 'daily' | 'weekly' | 'monthly' };

/** A consent screen that was shown and not yet answered. */
export interface Consent {
  id: string;
  flow: Exclude<Flow, 'downstream'>;
  clientId?: string;
  clientName: string;
  redirectUri: string;
  state?: string;
  challenge: string;
  scope: string;
  expiresAt: number;
}

export interface IssuedCode {
  flow: Flow;
  clientId?: string;
  clientName: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  accountId: string;
  label?: string;
  spendCap?: SpendCap;
  keyExpiresAt?: number;
  expiresAt: number;
  used: boolean;
}

/** Codes are short-lived (spec: "short-lived"; the platform's exact lifetime is not shown). */
export const CODE_TTL_MS = 60_000;
export const CONSENT_TTL_MS = 10 * 60_000;
/** The fixed, recognisable prefix of OAuth-issued keys (spec 1 §2.2). */
const ISSUED_KEY_PREFIX = `sk-${SANDBOX_WORD}-app-`;
export const CLIENT_ID_PREFIX = `${SANDBOX_WORD}-client-`;
/** The person signed in to the sandbox's consent screen: the owner of the demo key's account. */
export const SANDBOX_USER = { id: 'user_demo', account: 'acct_demo', email: 'demo@sandbox.invalid' } as const;

/** Secrets (codes, keys, consent ids) are random even in the deterministic sandbox: tests rely on them being unguessable. */
export const secret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export function grants(ctx: SandboxContext) {
  return {
    clients: ctx.state.collection<OAuthClient>('oauth.clients'),
    consents: ctx.state.collection<Consent>('oauth.consents'),
    codes: ctx.state.collection<IssuedCode>('oauth.codes'),
  };
}

export function issueCode(ctx: SandboxContext, from: Omit<IssuedCode, 'expiresAt' | 'used'>): string {
  const code = secret();
  grants(ctx).codes.set(code, { ...from, expiresAt: ctx.now() + CODE_TTL_MS, used: false });
  return code;
}

/**
 * Redeems a code exactly once: any attempt consumes it, so a failed or repeated exchange never
 * yields a key (`invalid_grant`: restart the flow, never reuse codes).
 */
export function redeemCode(
  ctx: SandboxContext,
  code: string,
  verifier: string,
  expect: { flows: Flow[]; clientId?: string; redirectUri?: string },
): IssuedCode {
  const record = grants(ctx).codes.get(code);
  if (!record)
    throw new OAuthError(400, 'invalid_grant', 'The authorization code is not valid; start the flow again.');
  if (record.used)
    throw new OAuthError(
      400,
      'invalid_grant',
      'The authorization code was already used; codes are single-use.',
    );
  record.used = true;
  if (record.expiresAt <= ctx.now())
    throw new OAuthError(400, 'invalid_grant', 'The authorization code has expired; start the flow again.');
  if (!VERIFIER_PATTERN.test(verifier)) {
    throw new OAuthError(
      400,
      'invalid_request',
      'code_verifier must be 43..128 characters of A-Z a-z 0-9 - . _ ~.',
    );
  }
  if (!expect.flows.includes(record.flow))
    throw new OAuthError(400, 'invalid_grant', 'This code was not issued for this endpoint.');
  if (expect.clientId !== undefined && record.clientId !== expect.clientId) {
    throw new OAuthError(400, 'invalid_grant', 'This code was issued to another client.');
  }
  if (expect.redirectUri !== undefined && record.redirectUri !== expect.redirectUri) {
    throw new OAuthError(
      400,
      'invalid_grant',
      'redirect_uri does not match the one of the authorization request.',
    );
  }
  if (!verifierMatches(verifier, record.challenge)) {
    throw new OAuthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge.');
  }
  return record;
}

/** A dedicated API key for the approved app, spending from the approving account. */
export function issueKey(ctx: SandboxContext, code: IssuedCode): string {
  const key = `${ISSUED_KEY_PREFIX}${secret(24)}`;
  const grant: KeyGrant = {
    clientName: code.clientName,
    scope: code.scope,
    origins: originsFor(code.redirectUri),
    ...(code.keyExpiresAt !== undefined ? { expiresAt: code.keyExpiresAt } : {}),
    ...(code.spendCap
      ? { spendCap: { ...code.spendCap, window: capWindow(code.spendCap.period, ctx.now()), spentNanos: 0 } }
      : {}),
  };
  ctx.state.createKey({
    key,
    account: code.accountId,
    label: code.label ?? `App: ${code.clientName}`,
    grant,
  });
  return key;
}
