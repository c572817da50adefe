import type { Context } from 'hono';
import { SANDBOX_DEMO_KEY } from '../constants.js';
import { fromNanos } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import {
  CONSENT_TTL_MS,
  type Consent,
  grants,
  issueCode,
  SANDBOX_USER,
  type SpendCap,
  secret,
} from './grants.js';
import { redirectWith } from './http.js';
import { consentPage, errorPage, pageHeaders } from './pages.js';
import { checkChallenge, checkRedirectUri, normaliseScope } from './rules.js';

/**
 * The browser side of both flows: validate, show the consent screen, turn the answer into a
 * redirect. Until the client and redirect URI validate, errors stay on the platform's own page;
 * after that they go back to the app as `error`, `error_description` and `state`.
 */

type C = Context<SandboxEnv>;

function query(c: C, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = c.req.query(name);
    if (value) return value;
  }
  return undefined;
}

function showError(c: C, error: string, description: string): Response {
  return c.body(errorPage(error, description), 400, pageHeaders());
}

function backToApp(c: C, redirectUri: string, params: Record<string, string | undefined>): Response {
  return c.body(null, 302, { Location: redirectWith(redirectUri, params), 'Cache-Control': 'no-store' });
}

/** `GET /auth`: the shortcut flow for local apps. */
export function shortcutAuthorize(c: C, ctx: SandboxContext): Response {
  const redirect = checkRedirectUri(query(c, 'callback_url', 'redirect_uri'));
  if (!redirect.ok) return showError(c, 'invalid_redirect_uri', redirect.reason);
  const state = c.req.query('state');
  const fail = (error: string, description: string) =>
    backToApp(c, redirect.value, { error, error_description: description, state });
  const challenge = checkChallenge(c.req.query('code_challenge'), c.req.query('code_challenge_method'));
  if (!challenge.ok) return fail('invalid_request', challenge.reason);
  const scope = normaliseScope(c.req.query('scope'));
  if (!scope.ok) return fail('invalid_scope', scope.reason);
  const clientName = (query(c, 'client_name', 'app_name', 'name', 'title') ?? 'An app').slice(0, 100);
  return showConsent(c, ctx, {
    flow: 'shortcut',
    clientName,
    redirectUri: redirect.value,
    state,
    challenge: challenge.value,
    scope: scope.value,
  });
}

/** `GET /oauth/authorize`: the standard flow for registered clients. */
export function standardAuthorize(c: C, ctx: SandboxContext): Response {
  const clientId = c.req.query('client_id');
  const client = clientId ? grants(ctx).clients.get(clientId) : undefined;
  if (!client)
    return showError(
      c,
      'invalid_client',
      clientId ? 'Unknown client_id; register the client first.' : 'client_id is required.',
    );
  const redirect = checkRedirectUri(c.req.query('redirect_uri'));
  if (!redirect.ok) return showError(c, 'invalid_redirect_uri', redirect.reason);
  if (!client.redirect_uris.includes(redirect.value)) {
    return showError(
      c,
      'invalid_redirect_uri',
      'redirect_uri is not exactly one of the URIs registered for this client.',
    );
  }
  const state = c.req.query('state');
  const fail = (error: string, description: string) =>
    backToApp(c, redirect.value, { error, error_description: description, state });
  if (c.req.query('response_type') !== 'code')
    return fail('unsupported_response_type', 'response_type must be code.');
  if (!state) return fail('invalid_request', 'state is required.');
  if (!c.req.query('code_challenge_method'))
    return fail('invalid_request', 'code_challenge_method is required and must be S256.');
  const challenge = checkChallenge(c.req.query('code_challenge'), c.req.query('code_challenge_method'));
  if (!challenge.ok) return fail('invalid_request', challenge.reason);
  if (!c.req.query('scope')) return fail('invalid_scope', 'scope is required and must include api.use.');
  const scope = normaliseScope(c.req.query('scope'));
  if (!scope.ok) return fail('invalid_scope', scope.reason);
  // prompt=consent forces the screen; the sandbox always shows it (no auto-approval).
  return showConsent(c, ctx, {
    flow: 'standard',
    clientId: client.client_id,
    clientName: client.client_name,
    redirectUri: redirect.value,
    state,
    challenge: challenge.value,
    scope: scope.value,
  });
}

function showConsent(c: C, ctx: SandboxContext, request: Omit<Consent, 'id' | 'expiresAt'>): Response {
  const consent: Consent = { ...request, id: secret(), expiresAt: ctx.now() + CONSENT_TTL_MS };
  grants(ctx).consents.set(consent.id, consent);
  const account = ctx.state.getKey(SANDBOX_DEMO_KEY)?.account;
  const html = consentPage({
    consentId: consent.id,
    appName: consent.clientName,
    redirectUri: consent.redirectUri,
    account: SANDBOX_USER.email,
    balanceUsd: account ? fromNanos(account.balanceNanos) : 0,
    scope: consent.scope,
  });
  return c.body(html, 200, pageHeaders(consent.redirectUri));
}

const PERIODS = ['daily', 'weekly', 'monthly'] as const;

/** `POST /oauth/consent`: the Approve or Deny button. A consent is answered once. */
export function answerConsent(c: C, ctx: SandboxContext): Response {
  const form = new URLSearchParams(c.get('bodyText'));
  const id = form.get('consent_id') ?? '';
  const { consents } = grants(ctx);
  const consent = consents.get(id);
  if (!consent || consent.expiresAt <= ctx.now()) {
    consents.delete(id);
    return showError(
      c,
      'invalid_request',
      'This consent screen expired or was already answered; start again from the app.',
    );
  }
  if (form.get('decision') !== 'approve') {
    consents.delete(id);
    return backToApp(c, consent.redirectUri, {
      error: 'access_denied',
      error_description: 'The user denied the request.',
      state: consent.state,
    });
  }
  let spendCap: SpendCap | undefined;
  const cap = form.get('spend_cap')?.trim();
  if (cap) {
    const usd = Number(cap);
    const period = form.get('spend_cap_period') ?? 'monthly';
    const known = PERIODS.find((p) => p === period);
    if (!Number.isFinite(usd) || usd < 0 || !known) {
      return showError(
        c,
        'invalid_request',
        'The spend cap must be a number of USD >= 0 per day, week or month. Go back and correct it.',
      );
    }
    spendCap = { usd, period: known };
  }
  consents.delete(id);
  const code = issueCode(ctx, {
    flow: consent.flow,
    clientId: consent.clientId,
    clientName: consent.clientName,
    redirectUri: consent.redirectUri,
    challenge: consent.challenge,
    scope: consent.scope,
    accountId: SANDBOX_USER.account,
    spendCap,
  });
  return backToApp(c, consent.redirectUri, { code, state: consent.state });
}
