import { z } from 'zod';
import { readReply } from '../replies/read.js';
import { type CallbackPage, type CallbackParams, sameState, startLoopback } from './loopback.js';
import { readPasted } from './paste.js';
import { challengeFor, createState, createVerifier } from './pkce.js';

/**
 * The OAuth PKCE shortcut flow of spec 1 §4.2: the browser opens the platform's consent page,
 * the platform redirects to a one-shot loopback listener with a code, and the code is exchanged
 * once for a dedicated API key. OAuth endpoints answer in RFC 6749 form (`{error,
 * error_description}`) and a code must never be sent twice, so these few calls use a plain
 * `fetch` with no retries rather than the API client.
 */

const SHORTCUT_SCOPE = 'models.read api.use';
const HTTP_TIMEOUT_MS = 15_000;

export interface ShortcutEndpoints {
  authorize: string;
  exchange: string;
}

export type ShortcutResult =
  | { ok: true; key: string; scope?: string; userId?: string }
  | {
      ok: false;
      error: string;
      description: string;
      /** The exchange may have made a key that never reached us (a 2xx without one, a lost reply). */
      mayHaveIssued?: true;
    };

/** What became of an address the person pasted: refused (the flow goes on), or the flow's outcome. */
type PasteOutcome = { accepted: true; result: ShortcutResult } | { accepted: false; reason: string };

export interface ShortcutFlow {
  /** The sign-in link: the platform's consent page for this flow. Holds no secret. */
  url: string;
  /** Where the platform sends the browser back: this flow's loopback callback. */
  redirectUri: string;
  /** Settles once: the key, a denial or error from the platform, or `expired`/`cancelled`. */
  result: Promise<ShortcutResult>;
  /**
   * Finishes the flow with the address the browser ended on (or its code), pasted by a person
   * whose browser could not reach the loopback callback; checked as the callback is.
   */
  complete(pasted: string): Promise<PasteOutcome>;
  cancel(): void;
}

export interface ShortcutOptions {
  baseUrl: string;
  clientName: string;
  /** How long the loopback listener waits for the browser. */
  ttlMs: number;
}

const Discovery = z.record(z.string(), z.unknown());
/**
 * `key` (shortcut exchange) and `access_token` carry the same API key; either will do. The code is
 * spent and the key minted by the time this reply comes, so a field the sign-in does not need
 * (another type than spec 1 §2.2 shows, null) is ignored rather than losing the key with it.
 */
const KeyReply = z
  .object({
    key: z.string().min(1).optional().catch(undefined),
    access_token: z.string().min(1).optional().catch(undefined),
    scope: z.string().optional().catch(undefined),
    user_id: z.union([z.string(), z.number()]).optional().catch(undefined),
  })
  .transform((reply, ctx) => {
    const key = reply.key ?? reply.access_token;
    if (key === undefined) {
      ctx.addIssue({ code: 'custom', message: 'the reply has neither key nor access_token' });
      return z.NEVER;
    }
    return {
      key,
      scope: reply.scope,
      userId: reply.user_id === undefined ? undefined : String(reply.user_id),
    };
  });
const OAuthErrorReply = z.object({ error: z.string(), error_description: z.string().optional() });

/**
 * The shortcut endpoints from `/.well-known/oauth-authorization-server`, whose extension keys
 * carry the platform's word (`x-<word>-oauth-shortcut-*`, matched by pattern); the documented
 * paths when the document is missing or lacks them.
 */
export async function discoverShortcut(baseUrl: string): Promise<ShortcutEndpoints> {
  const fallback = { authorize: `${baseUrl}/auth`, exchange: `${baseUrl}/api/v1/auth/keys` };
  let doc: Record<string, unknown>;
  try {
    const res = await fetch(`${baseUrl}/.well-known/oauth-authorization-server`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    if (!res.ok) return fallback;
    const parsed = readReply(Discovery, await res.json());
    if (!parsed.success) return fallback;
    doc = parsed.data;
  } catch {
    return fallback;
  }
  const find = (suffix: string): string | undefined => {
    const pattern = new RegExp(`^x-[a-z0-9_-]+-oauth-shortcut-${suffix}$`, 'i');
    for (const [key, value] of Object.entries(doc)) {
      if (pattern.test(key) && typeof value === 'string' && isSafeEndpoint(value)) return value;
    }
    return undefined;
  };
  return {
    authorize: find('authorization_endpoint') ?? fallback.authorize,
    exchange: find('token_endpoint') ?? fallback.exchange,
  };
}

/** HTTPS, or HTTP on a loopback address (the sandbox, a local platform). */
function isSafeEndpoint(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** Starts a flow: the loopback listener is up and the link is ready to be opened. */
export async function startShortcut(options: ShortcutOptions): Promise<ShortcutFlow> {
  const endpoints = await discoverShortcut(options.baseUrl);
  const verifier = createVerifier();
  const state = createState();
  let settle!: (result: ShortcutResult) => void;
  const result = new Promise<ShortcutResult>((resolve) => {
    settle = resolve;
  });

  /** The platform's answer (a code or an error) turned into the flow's outcome; the code is spent here. */
  const outcomeOf = async ({ code, error, errorDescription }: CallbackParams): Promise<ShortcutResult> => {
    if (error || !code) {
      return {
        ok: false,
        error: error ?? 'invalid_request',
        description:
          errorDescription ??
          (error === 'access_denied' ? 'The request was denied.' : 'The platform reported an error.'),
      };
    }
    return exchangeCode(endpoints.exchange, code, verifier);
  };

  const loopback = await startLoopback({
    state,
    timeoutMs: options.ttlMs,
    async onCallback(params): Promise<CallbackPage> {
      const outcome = await outcomeOf(params);
      settle(outcome);
      return pageFor(outcome);
    },
    onClose(reason) {
      if (reason === 'timeout')
        settle({ ok: false, error: 'expired', description: 'No approval arrived in time.' });
      if (reason === 'closed')
        settle({ ok: false, error: 'cancelled', description: 'The sign-in was cancelled.' });
    },
  });

  const complete = async (text: string): Promise<PasteOutcome> => {
    const pasted = readPasted(text);
    if (pasted.kind === 'unreadable') return { accepted: false, reason: pasted.problem };
    // The same state check as the loopback's: an address from another attempt is refused.
    if (pasted.kind === 'callback' && !sameState(state, pasted.state)) {
      return {
        accepted: false,
        reason:
          pasted.state === undefined
            ? 'That address has no state, so it cannot be told from another sign-in attempt: paste the whole address the browser ended on.'
            : "That address belongs to another sign-in attempt (its state is not this one's), so nothing was exchanged: paste the address from the sign-in you just approved, or start again.",
      };
    }
    // Already answered (at the loopback, or by an earlier paste): that outcome stands.
    if (!loopback.claim()) return { accepted: true, result: await result };
    const outcome = await outcomeOf(pasted.kind === 'code' ? { code: pasted.code } : pasted.params);
    if (pasted.kind === 'code' && !outcome.ok) {
      // A bare code carries no state: one the platform refused may be another attempt's, so this
      // flow stays open for its own.
      loopback.unclaim();
      return {
        accepted: false,
        reason: `The platform did not take that code (${outcome.error}: ${outcome.description}); it may belong to another sign-in attempt or be used up. Paste the whole address from the sign-in you just approved.`,
      };
    }
    settle(outcome);
    loopback.done();
    return { accepted: true, result: outcome };
  };

  const url = new URL(endpoints.authorize);
  url.searchParams.set('callback_url', loopback.redirectUri);
  url.searchParams.set('code_challenge', challengeFor(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('scope', SHORTCUT_SCOPE);
  url.searchParams.set('state', state);
  url.searchParams.set('client_name', options.clientName);
  return {
    url: url.toString(),
    redirectUri: loopback.redirectUri,
    result,
    complete,
    cancel: () => loopback.close(),
  };
}

/** What the browser tab shows after the loopback callback. */
function pageFor(outcome: ShortcutResult): CallbackPage {
  if (outcome.ok)
    return { ok: true, title: 'Signed in', message: 'You can close this tab and go back to your assistant.' };
  if (outcome.error === 'access_denied')
    return { ok: false, title: 'Sign-in cancelled', message: 'Nothing was shared. You can close this tab.' };
  return {
    ok: false,
    title: 'Sign-in failed',
    message: `${outcome.error}: ${outcome.description} Start again from your assistant.`,
  };
}

/** Exchanges the code once (JSON body); never retried, since codes are single-use. */
export async function exchangeCode(
  endpoint: string,
  code: string,
  verifier: string,
): Promise<ShortcutResult> {
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code, code_verifier: verifier }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
  } catch (error) {
    // Timed out once sent: the platform may have made the key all the same.
    if ((error as Error).name === 'TimeoutError') {
      return {
        ok: false,
        error: 'timeout',
        description: `${endpoint} did not answer within ${HTTP_TIMEOUT_MS / 1000} s.`,
        mayHaveIssued: true,
      };
    }
    return {
      ok: false,
      error: 'connection_failed',
      description: `Could not reach ${endpoint} (${(error as Error).message}).`,
    };
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (res.ok) {
    const parsed = readReply(KeyReply, body);
    if (!parsed.success)
      return {
        ok: false,
        error: 'invalid_response',
        description: `The platform accepted the exchange (HTTP ${res.status}) but sent no key this server could read.`,
        mayHaveIssued: true,
      };
    return { ok: true, ...parsed.data };
  }
  const oauth = readReply(OAuthErrorReply, body);
  if (oauth.success) {
    return {
      ok: false,
      error: oauth.data.error,
      description: oauth.data.error_description ?? `HTTP ${res.status}.`,
    };
  }
  return { ok: false, error: 'http_error', description: `The platform answered HTTP ${res.status}.` };
}
