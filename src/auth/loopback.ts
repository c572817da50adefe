import { timingSafeEqual } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The query the platform sends back to the callback. */
export interface CallbackParams {
  code?: string;
  error?: string;
  errorDescription?: string;
}

/** What the person sees in the browser tab after the redirect. */
export interface CallbackPage {
  ok: boolean;
  title: string;
  message: string;
}

export interface LoopbackOptions {
  /** The `state` sent in the authorization request; a callback with any other state is refused. */
  state: string;
  /** Closes by itself after this long without a valid callback. */
  timeoutMs: number;
  /** Handles the one valid callback (exchanges the code) and says what to show. */
  onCallback(params: CallbackParams): Promise<CallbackPage>;
  /** Called once when the listener closes, whatever the reason. */
  onClose?(reason: 'done' | 'timeout' | 'closed'): void;
}

export interface Loopback {
  /** `http://127.0.0.1:<port>/callback`: loopback HTTP with an explicit port (spec 1 §4.2). */
  redirectUri: string;
  close(): void;
  /**
   * Takes the one callback for an address the person pasted instead: false when a callback was
   * already handled (here or pasted). A request arriving afterwards is told the sign-in finished.
   */
  claim(): boolean;
  /** Gives a claim back: the pasted code was refused and may not have been this flow's. */
  unclaim(): void;
  /** Closes after a pasted address finished the flow. */
  done(): void;
}

/** Whether a returned `state` is the one sent; compared in constant time. */
export function sameState(expected: string, given: string | undefined): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given ?? '');
  return a.length === b.length && timingSafeEqual(a, b);
}

const CALLBACK_PATH = '/callback';

/**
 * A one-shot callback listener on 127.0.0.1 and a free port. It accepts exactly one request
 * that carries the expected `state`, answers it, and closes; anything else gets a 4xx page and
 * does not end the wait (so a stray or forged request cannot break a sign-in in progress).
 */
export async function startLoopback(options: LoopbackOptions): Promise<Loopback> {
  let handled = false;
  let closed = false;
  let port = 0;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH)
      return page(res, 404, 'Not found', 'Nothing here.');
    if (req.headers.host !== `127.0.0.1:${port}`)
      return page(res, 400, 'Wrong address', 'Unexpected Host header.');
    if (handled)
      return page(res, 410, 'Already used', 'This sign-in already finished; you can close this tab.');
    if (!sameState(options.state, url.searchParams.get('state') ?? undefined)) {
      return page(
        res,
        400,
        'Sign-in not accepted',
        'invalid_state: this response does not belong to the sign-in this app started. Start the sign-in again from your assistant.',
      );
    }
    const code = url.searchParams.get('code') ?? undefined;
    const error = url.searchParams.get('error') ?? undefined;
    if (!code && !error)
      return page(
        res,
        400,
        'Sign-in not accepted',
        'invalid_request: the response has neither code nor error.',
      );
    handled = true;
    options
      .onCallback({ code, error, errorDescription: url.searchParams.get('error_description') ?? undefined })
      .catch(
        (e: unknown): CallbackPage => ({ ok: false, title: 'Sign-in failed', message: (e as Error).message }),
      )
      .then((result) => {
        res.once('finish', () => shut('done'));
        page(res, result.ok ? 200 : 400, result.title, result.message);
      });
  });

  const shut = (reason: 'done' | 'timeout' | 'closed') => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
    options.onClose?.(reason);
  };
  const timer = setTimeout(() => shut('timeout'), options.timeoutMs);
  timer.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // The listener must not keep a CLI or server process alive on its own.
  server.unref();
  port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    close: () => shut('closed'),
    claim: () => {
      if (handled || closed) return false;
      handled = true;
      return true;
    },
    unclaim: () => {
      handled = false;
    },
    done: () => shut('done'),
  };
}

function page(res: ServerResponse, status: number, title: string, message: string): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}</style></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'referrer-policy': 'no-referrer',
  });
  res.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
