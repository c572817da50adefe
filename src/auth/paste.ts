import { SignInRequiredError } from '../errors.js';
import { nextCall } from '../next-call.js';
import type { CallbackParams } from './loopback.js';

/**
 * What a person pastes back when the browser could not reach the loopback callback: the whole
 * address it ended on (`http://127.0.0.1:<port>/callback?code=...&state=...`), that address
 * without its scheme or only its query, or only the code. Read leniently (spaces, quotes and angle
 * brackets around it are dropped); anything else is refused with what to paste instead.
 */
export type Pasted =
  | { kind: 'callback'; params: CallbackParams; state: string | undefined }
  | { kind: 'code'; code: string }
  | { kind: 'unreadable'; problem: string };

/** Longer than any callback address a platform sends; a paste beyond it is something else. */
const MAX_PASTE = 8_192;
/** A bare code: URL-safe characters only (spec 1 §4.2 does not fix its alphabet). */
const CODE_CHARACTERS = new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~+/=-');

function isBareCode(text: string): boolean {
  return text.length >= 8 && text.length <= 2048 && [...text].every((c) => CODE_CHARACTERS.has(c));
}

/** Quotes and angle brackets a chat or a terminal may put around a pasted address. */
const WRAPPERS = new Set(['"', "'", '<', '>', '`']);

/** The text without surrounding spaces, quotes and angle brackets. */
function unwrap(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (WRAPPERS.has(text[start]!) || text[start]!.trim() === '')) start++;
  while (end > start && (WRAPPERS.has(text[end - 1]!) || text[end - 1]!.trim() === '')) end--;
  return text.slice(start, end);
}

export function readPasted(text: string): Pasted {
  const trimmed = unwrap(text);
  if (trimmed.length === 0) return { kind: 'unreadable', problem: 'Nothing was pasted.' };
  if (trimmed.length > MAX_PASTE)
    return { kind: 'unreadable', problem: 'That is far longer than the address the browser ended on.' };
  if (!trimmed.includes('=')) {
    return isBareCode(trimmed)
      ? { kind: 'code', code: trimmed }
      : {
          kind: 'unreadable',
          problem:
            'That is neither the address the browser ended on nor a code: paste the whole address from the address bar.',
        };
  }
  const query = trimmed.includes('?') ? trimmed.slice(trimmed.indexOf('?') + 1) : trimmed;
  const params = new URLSearchParams(query.split('#')[0]);
  const code = params.get('code') ?? undefined;
  const error = params.get('error') ?? undefined;
  if (!code && !error)
    return {
      kind: 'unreadable',
      problem: 'That address has neither a code nor an error: paste the whole address the browser ended on.',
    };
  return {
    kind: 'callback',
    params: { code, error, errorDescription: params.get('error_description') ?? undefined },
    state: params.get('state') ?? undefined,
  };
}

/** A flow as the person is told about it: its sign-in link and its loopback callback. */
interface FlowLinks {
  url: string;
  redirectUri: string;
}

/** The form's question: open the link if not shown yet, approve, paste the address it ends on. */
export function pasteQuestion(flow: FlowLinks, shown: boolean): string {
  const open = shown
    ? 'Approve the request in your browser.'
    : `Open ${flow.url} in a browser and approve the request.`;
  return `${open} The browser then goes to ${flow.redirectUri}?code=..., a page on this machine that it may not reach: copy that whole address from the address bar and paste it here (only the code will do too).`;
}

/** Without a form: the result says what to do, and the address comes back through auth_login. */
export function pasteInstructions(flow: FlowLinks, shown: boolean): SignInRequiredError {
  return new SignInRequiredError(
    `${shown ? 'Approve the request in the browser.' : 'Sign-in needed: open the link below in a browser and approve access.'} The browser then goes to ${flow.redirectUri}?code=... on the machine this server runs on; if that page does not load, copy its whole address from the address bar.`,
    {
      fix: 'Ask the person for that address and call auth_login with it as callback_url; if the page said "Signed in", call the tool again.',
      details: shown ? undefined : { sign_in_url: flow.url },
      next: nextCall('auth_login', { callback_url: '<the address the browser ended on>' }),
    },
  );
}
