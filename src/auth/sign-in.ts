import { AskFirst, type SignInPrompt } from '../credentials.js';
import {
  AbortedError,
  SignInDeclinedError,
  SignInFailedError,
  SignInPendingError,
  SignInRequiredError,
} from '../errors.js';
import { ENV_PREFIX } from '../word.js';
import type { ShortcutFlow, ShortcutResult } from './shortcut.js';

export interface SignInOptions {
  baseUrl: string;
  /** Keeps the key (the store); called once per successful flow, before any waiting call resumes. */
  save(result: Extract<ShortcutResult, { ok: true }>): void;
  /** Shown on the consent screen. */
  clientName?: string;
  /** How long one tool call waits for the approval. */
  waitMs?: number;
  /** How long a started flow stays open for a late approval (the next call then finds the key). */
  ttlMs?: number;
  /** Whether a browser may be opened here (see isDesktop). */
  desktop: boolean;
  openBrowser(url: string): Promise<boolean>;
  log?(message: string): void;
}

interface Pending {
  flow: ShortcutFlow;
  /** Settles after the key is saved (or with the failure). */
  outcome: Promise<ShortcutResult>;
  browserOpened: boolean;
}

const TICK_MS = 5_000;
const ASK =
  'Sign in to the Orbit platform so this assistant can use your account: approve the request in your browser. The tool call continues when you do.';

/**
 * The sign-in a tool call triggers when it needs an API key and none is configured. One flow at
 * a time: concurrent or repeated calls join it, so the person sees one consent page. The link
 * reaches the person by URL elicitation when the client supports it; otherwise the browser is
 * opened on a desktop, and the result always carries the link and what to do.
 */
export class SignInManager {
  private pending: Promise<Pending> | undefined;
  /** Bumped by cancel(), so a flow that finishes starting after a cancel is closed at once. */
  private generation = 0;
  private readonly waitMs: number;
  private readonly ttlMs: number;

  constructor(private readonly options: SignInOptions) {
    this.waitMs = options.waitMs ?? 120_000;
    this.ttlMs = Math.max(options.ttlMs ?? 600_000, this.waitMs);
  }

  async ensure(prompt: SignInPrompt): Promise<void> {
    const pending = await this.current();
    const url = pending.flow.url;
    let completed: (() => Promise<void>) | undefined;
    if (prompt.showUrl) {
      let answer: Awaited<ReturnType<NonNullable<SignInPrompt['showUrl']>>> | undefined;
      try {
        answer = await prompt.showUrl(ASK, url);
      } catch (error) {
        if (error instanceof AskFirst) throw error;
        if (prompt.signal.aborted) throw new AbortedError();
        this.options.log?.(`URL elicitation failed (${(error as Error).message}); falling back to the link`);
      }
      if (answer && answer.action !== 'accept') {
        this.cancel();
        throw new SignInDeclinedError('Sign-in was declined, so nothing was called.', {
          fix: `Call the tool again when you want to sign in, or set ${ENV_PREFIX}API_KEY.`,
        });
      }
      completed = answer?.completed;
    }
    if (!completed && this.options.desktop && !pending.browserOpened) {
      pending.browserOpened = await this.options.openBrowser(url);
    }
    if (!completed && !pending.browserOpened) {
      // The person only learns the link from this result, so return it now instead of waiting.
      throw new SignInRequiredError('Sign-in needed: open the link below in a browser and approve access.', {
        fix: 'After approving, call the tool again; it will then use the new key.',
        details: { sign_in_url: url },
      });
    }
    const outcome = await this.wait(pending, prompt);
    if (outcome === 'timeout') {
      throw new SignInPendingError('Still waiting for approval in the browser.', {
        fix: 'Approve the request in the browser, then call the tool again.',
        details: completed ? undefined : { sign_in_url: url },
      });
    }
    if (!outcome.ok) {
      const denied = outcome.error === 'access_denied';
      throw new SignInFailedError(
        denied
          ? 'Sign-in was denied in the browser (access_denied); no key was issued.'
          : `Sign-in failed (${outcome.error}): ${outcome.description}`,
        {
          upstreamCode: outcome.error,
          fix: outcome.mayHaveIssued
            ? "A key may have been made that never reached this server: the platform's API key settings (or api_keys_read) show it; revoke it there. A new sign-in makes another key."
            : 'Call the tool again to start a new sign-in.',
        },
      );
    }
    await completed?.().catch(() => {});
  }

  /** Closes a flow in progress (its loopback listener). */
  cancel(): void {
    const pending = this.pending;
    this.pending = undefined;
    this.generation += 1;
    pending?.then((p) => p.flow.cancel()).catch(() => {});
  }

  private current(): Promise<Pending> {
    this.pending ??= this.start();
    const started = this.pending;
    // A flow that could not start (platform unreachable) is not kept.
    started.catch(() => {
      if (this.pending === started) this.pending = undefined;
    });
    return started;
  }

  private async start(): Promise<Pending> {
    const generation = this.generation;
    let flow: ShortcutFlow;
    try {
      // The flow (loopback server, PKCE, discovery) loads only when someone signs in.
      const { startShortcut } = await import('./shortcut.js');
      flow = await startShortcut({
        baseUrl: this.options.baseUrl,
        clientName: this.options.clientName ?? 'orbit-mcp',
        ttlMs: this.ttlMs,
      });
    } catch (error) {
      throw new SignInFailedError(`Could not start sign-in: ${(error as Error).message}`, {
        fix: `Check ${ENV_PREFIX}BASE_URL and the network, then call again.`,
      });
    }
    if (generation !== this.generation) {
      flow.cancel();
      throw new SignInFailedError('The sign-in was cancelled.', {
        fix: 'Call the tool again to sign in.',
      });
    }
    const mine = this.pending;
    const outcome = flow.result.then((result) => {
      if (this.pending === mine) this.pending = undefined;
      if (!result.ok) return result;
      try {
        this.options.save(result);
      } catch (error) {
        return { ok: false as const, error: 'store_failed', description: (error as Error).message };
      }
      return result;
    });
    this.options.log?.('sign-in started; waiting for approval in the browser');
    return { flow, outcome, browserOpened: false };
  }

  private async wait(pending: Pending, prompt: SignInPrompt): Promise<ShortcutResult | 'timeout'> {
    const started = Date.now();
    const deadline = started + this.waitMs;
    prompt.progress('Waiting for approval in the browser');
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return 'timeout';
      const outcome = await Promise.race([
        pending.outcome,
        tick(Math.min(TICK_MS, remaining), prompt.signal),
      ]);
      if (outcome) return outcome;
      if (prompt.signal.aborted) throw new AbortedError();
      prompt.progress(`Waiting for approval in the browser (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  }
}

function tick(ms: number, signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve(undefined);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
