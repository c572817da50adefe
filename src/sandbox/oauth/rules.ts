import { createHash } from 'node:crypto';

/** The redirect-URI, PKCE and scope rules of spec 1 §4.2, shared by both flows. */

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Allowed: HTTPS, and loopback HTTP with an explicit port. Rejected: wildcards, fragments,
 * credentials, other web HTTP, loopback without a port. Loopback hosts are canonicalised to
 * 127.0.0.1, and the result is the form that exact matching compares.
 */
export function checkRedirectUri(raw: string | undefined): Checked<string> {
  if (!raw) return { ok: false, reason: 'redirect URI is missing' };
  if (raw.includes('*')) return { ok: false, reason: 'wildcards are not allowed in a redirect URI' };
  if (raw.includes('#')) return { ok: false, reason: 'a redirect URI must not have a fragment' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'the redirect URI is not an absolute URL' };
  }
  if (url.username || url.password || /^[a-z]+:\/\/[^/?]*@/i.test(raw)) {
    return { ok: false, reason: 'a redirect URI must not contain credentials' };
  }
  if (url.protocol === 'https:') {
    if (!url.hostname) return { ok: false, reason: 'the redirect URI has no host' };
    return { ok: true, value: url.toString() };
  }
  if (url.protocol !== 'http:')
    return { ok: false, reason: `the ${url.protocol} scheme is not allowed; use HTTPS or loopback HTTP` };
  if (!LOOPBACK_HOSTS.has(url.hostname)) {
    return {
      ok: false,
      reason: 'web redirects must use HTTPS; plain HTTP is only allowed on loopback addresses',
    };
  }
  // The URL parser drops a default port (:80), so the port must be read from the text itself.
  const port = /^http:\/\/(?:\[[^\]]*\]|[^/:?]*):(\d{1,5})(?:[/?]|$)/i.exec(raw)?.[1];
  if (!port || Number(port) < 1 || Number(port) > 65535) {
    return {
      ok: false,
      reason: 'a loopback redirect URI needs an explicit port (for example http://127.0.0.1:53682/callback)',
    };
  }
  return { ok: true, value: `http://127.0.0.1:${Number(port)}${url.pathname}${url.search}` };
}

/** Origins an issued key may be used from: the redirect's origin, or every loopback name on its port. */
export function originsFor(redirectUri: string): string[] {
  const url = new URL(redirectUri);
  if (url.protocol === 'https:') return [url.origin];
  return [...LOOPBACK_HOSTS].map((host) => `http://${host}:${url.port}`);
}

export const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** `plain` is refused; the challenge must look like a base64url SHA-256. */
export function checkChallenge(challenge: string | undefined, method: string | undefined): Checked<string> {
  if ((method ?? 'S256') !== 'S256') {
    return { ok: false, reason: `code_challenge_method must be S256 (${method} is not accepted)` };
  }
  if (!challenge) return { ok: false, reason: 'code_challenge is required' };
  if (!CHALLENGE_PATTERN.test(challenge)) {
    return {
      ok: false,
      reason: 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)',
    };
  }
  return { ok: true, value: challenge };
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url') === challenge;
}

export const SCOPES = ['models.read', 'api.use'] as const;
const DEFAULT_SCOPE = 'api.use models.read';

/** Known scopes only, `api.use` required, normalised to the order `models.read api.use`. */
export function normaliseScope(raw: string | undefined): Checked<string> {
  const asked = (raw?.trim() ? raw : DEFAULT_SCOPE).split(/[\s+]+/).filter(Boolean);
  const unknown = asked.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length)
    return { ok: false, reason: `unknown scope ${unknown.join(', ')}; known scopes are ${SCOPES.join(' ')}` };
  if (!asked.includes('api.use')) return { ok: false, reason: 'the scope must include api.use' };
  return { ok: true, value: SCOPES.filter((scope) => asked.includes(scope)).join(' ') };
}
