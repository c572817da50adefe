import { AskFirst, type SignInPrompt } from '../credentials.js';
import {
  AbortedError,
  SignInDeclinedError,
  SignInFailedError,
  SignInPendingError,
  SignInRequiredError,
} from '../errors.js';
import { ENV_PREFIX } from '../word.js';
import { pasteInstructions, pasteQuestion } from './paste.js';
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
  /**
   * Whether the browser is probably on another machine (see browserElsewhere): the person is asked
   * to paste back the address it ended on, by a form or through auth_login, instead of a wait for
   * a loopback callback that cannot arrive.
   */
  pasteBack?: boolean;
  openBrowser(url: string): Promise<boolean>;
  log?(message: string): void;
}

interface Pending {
  flow: ShortcutFlow;
  /** Settles after the key is saved (or with the failure). */
  outcome: Promise<ShortcutResult>;
  /** The outcome once it is there. */
  settled?: ShortcutResult;
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
    if (prompt.pasted !== undefined) return this.finishWith(prompt.pasted);
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
    const shown = completed !== undefined || pending.browserOpened;
    if (this.options.pasteBack) {
      if (prompt.askPaste && !pending.settled) await this.askForAddress(pending, prompt, shown);
      else if (!pending.settled) throw pasteInstructions(pending.flow, shown);
      return this.conclude(pending.settled ?? (await pending.outcome), completed);
    }
    if (!shown) {
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
    return this.conclude(outcome, completed);
  }

  /** A finished flow: the key is saved, or the failure said as the model can act on it. */
  private async conclude(outcome: ShortcutResult, completed?: () => Promise<void>): Promise<void> {
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

  /**
   * Asks the person, by a form, for the address the browser ended on, while the loopback keeps
   * listening (the browser may be here after all): whichever answers first finishes the flow.
   */
  private async askForAddress(pending: Pending, prompt: SignInPrompt, shown: boolean): Promise<void> {
    const withdraw = new AbortController();
    const stop = () => withdraw.abort();
    prompt.signal.addEventListener('abort', stop, { once: true });
    try {
      const asked = prompt.askPaste!(pasteQuestion(pending.flow, shown), withdraw.signal).then(
        (text) => ({ text }),
        (error: unknown) => ({ error }),
      );
      const first = await Promise.race([pending.outcome.then(() => undefined), asked]);
      if (first === undefined) return;
      if ('error' in first) {
        if (first.error instanceof AskFirst) throw first.error;
        if (prompt.signal.aborted) throw new AbortedError();
        this.options.log?.(
          `form elicitation failed (${(first.error as Error).message}); the address comes by auth_login`,
        );
        throw pasteInstructions(pending.flow, shown);
      }
      if (first.text === undefined) {
        this.cancel();
        throw new SignInDeclinedError('Sign-in was declined, so nothing was called.', {
          fix: `Call the tool again when you want to sign in, or set ${ENV_PREFIX}API_KEY.`,
        });
      }
      await this.complete(pending, first.text);
    } finally {
      withdraw.abort();
      prompt.signal.removeEventListener('abort', stop);
    }
  }

  /** An address pasted into a later call (auth_login's callback_url) for the flow in progress. */
  private async finishWith(pasted: string): Promise<void> {
    const pending = this.pending ? await this.pending.catch(() => undefined) : undefined;
    if (!pending) {
      throw new SignInFailedError(
        'No sign-in of this server is waiting for that address (it expired, was cancelled, or the server restarted since).',
        {
          fix: 'Call auth_login without callback_url to start a new sign-in, then paste the address it ends on.',
        },
      );
    }
    await this.complete(pending, pasted);
    return this.conclude(await pending.outcome);
  }

  /** Hands the pasted address to the flow; one it refuses leaves the flow open for the right one. */
  private async complete(pending: Pending, pasted: string): Promise<void> {
    const answer = await pending.flow.complete(pasted);
    if (!answer.accepted) {
      throw new SignInFailedError(answer.reason, {
        fix: 'Call auth_login with callback_url set to the address your browser ended on after approving.',
      });
    }
    // Saved (or failed to save) before this returns.
    await pending.outcome;
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
    const pending: Pending = { flow, outcome, browserOpened: false };
    void outcome.then((result) => {
      pending.settled = result;
    });
    return pending;
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
