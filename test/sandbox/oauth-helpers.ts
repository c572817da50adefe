import { createHash, randomBytes } from 'node:crypto';
import type { Sandbox } from '../../src/sandbox/index.js';

/** Helpers that play the browser and the app against the sandbox's OAuth routes over plain HTTP. */

export function pkce(verifier = randomBytes(48).toString('base64url')) {
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(
  sb: Sandbox,
  path: '/auth' | '/oauth/authorize',
  params: Record<string, string>,
): string {
  const url = new URL(path, sb.url);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/** Opens the consent page and returns the consent id from its form. */
export async function openConsent(url: string): Promise<{ res: Response; html: string; consentId?: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  const html = await res.text();
  return { res, html, consentId: /name="consent_id" value="([^"]+)"/.exec(html)?.[1] };
}

/** Presses Approve or Deny; returns the redirect back to the app, parsed. */
export async function answer(
  sb: Sandbox,
  consentId: string,
  decision: 'approve' | 'deny',
  cap?: { usd: string; period?: string },
): Promise<{ status: number; location?: URL; body: string }> {
  const form = new URLSearchParams({ consent_id: consentId, decision });
  if (cap) {
    form.set('spend_cap', cap.usd);
    form.set('spend_cap_period', cap.period ?? 'monthly');
  }
  const res = await fetch(`${sb.url}/oauth/consent`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location) : undefined, body: await res.text() };
}

/** Runs the shortcut flow up to the code. */
export async function shortcutCode(
  sb: Sandbox,
  options: { redirect?: string; cap?: { usd: string; period?: string }; verifier?: string } = {},
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce(options.verifier);
  const url = authorizeUrl(sb, '/auth', {
    callback_url: options.redirect ?? 'http://127.0.0.1:53682/callback',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    client_name: 'Test app',
  });
  const { consentId } = await openConsent(url);
  if (!consentId) throw new Error('no consent form');
  const back = await answer(sb, consentId, 'approve', options.cap);
  const code = back.location?.searchParams.get('code');
  if (!code) throw new Error(`no code in ${back.location}`);
  return { code, verifier };
}

export function postJson(
  sb: Sandbox,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export function postForm(sb: Sandbox, path: string, body: Record<string, string>): Promise<Response> {
  return fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
}
