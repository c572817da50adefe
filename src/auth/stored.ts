import {
  type Credential,
  type CredentialKind,
  type CredentialProvider,
  type CredentialStatus,
  describeCredentials,
  type SignInPrompt,
} from '../credentials.js';
import { type Logger, registerSecret } from '../log.js';
import { browserElsewhere, isDesktop, openBrowser } from './desktop.js';
import { SignInManager, type SignInOptions } from './sign-in.js';
import type { CredentialStore } from './store.js';

export interface StoredCredentialsOptions {
  /** From the environment or flags; always wins over the store. */
  explicit: readonly Credential[];
  /** The platform base URL the stored entries belong to. */
  platform: string;
  store: CredentialStore;
  /** Enables sign-in through the browser; tests shorten the waits and replace the browser. */
  signIn?: Partial<Omit<SignInOptions, 'baseUrl' | 'save'>> | false;
  log?: Pick<Logger, 'info' | 'warning'>;
}

/**
 * Credentials of a process that runs for one person (stdio, CLI): explicit configuration first,
 * then what sign-in stored for this platform. A stored key the platform rejects is discarded at
 * once, so the next call asks to sign in instead of failing again (and never loops).
 */
export class StoredCredentials implements CredentialProvider {
  readonly signIn?: (prompt: SignInPrompt) => Promise<void>;
  private readonly memory = new Map<CredentialKind, Credential>();
  private readonly manager: SignInManager | undefined;

  constructor(private readonly options: StoredCredentialsOptions) {
    for (const credential of options.explicit) registerSecret(credential.value);
    if (options.signIn !== false) {
      const settings = options.signIn ?? {};
      this.manager = new SignInManager({
        desktop: isDesktop(),
        pasteBack: browserElsewhere(),
        openBrowser,
        log: (message) => options.log?.info(message),
        ...settings,
        baseUrl: options.platform,
        save: (result) =>
          this.save('api_key', result.key, { scope: result.scope, user_id: result.userId, via: 'sign-in' }),
      });
      const manager = this.manager;
      this.signIn = (prompt) => manager.ensure(prompt);
    }
  }

  get store(): CredentialStore {
    return this.options.store;
  }

  get(kind: CredentialKind): Credential | undefined {
    const explicit = this.options.explicit.find((credential) => credential.kind === kind);
    if (explicit) return explicit;
    const remembered = this.memory.get(kind);
    if (remembered) return remembered;
    const entry = this.options.store.get(this.options.platform, kind);
    if (!entry) return undefined;
    registerSecret(entry.value);
    return { kind, value: entry.value, source: 'store' };
  }

  async rejected(credential: Credential): Promise<void> {
    if (credential.source !== 'store') return;
    if (this.memory.get(credential.kind)?.value === credential.value) this.memory.delete(credential.kind);
    try {
      this.options.store.delete(this.options.platform, credential.kind, credential.value);
    } catch (error) {
      this.options.log?.warning(
        `Could not remove the rejected ${credential.kind} from ${this.options.store.path}: ${(error as Error).message}`,
      );
    }
    this.options.log?.warning(
      `The platform rejected the stored ${credential.kind.replace('_', ' ')} (401); it was discarded, and the next call will ask you to sign in again.`,
    );
  }

  describe(): CredentialStatus[] {
    return describeCredentials(this);
  }

  async forget(): Promise<CredentialKind[]> {
    this.manager?.cancel();
    const removed = new Set(this.memory.keys());
    this.memory.clear();
    for (const kind of this.options.store.forget(this.options.platform)) removed.add(kind);
    return [...removed];
  }

  /** Keeps a credential in the store; if the file cannot be written it lives in memory for this process. */
  save(
    kind: CredentialKind,
    value: string,
    meta: { scope?: string; user_id?: string; via: 'sign-in' | 'cli' },
  ): void {
    registerSecret(value);
    try {
      this.options.store.set(this.options.platform, kind, {
        value,
        obtained_at: new Date().toISOString(),
        ...meta,
      });
      this.memory.delete(kind);
    } catch (error) {
      this.memory.set(kind, { kind, value, source: 'store' });
      this.options.log?.warning(
        `Could not write ${this.options.store.path} (${(error as Error).message}); the key is kept for this process only.`,
      );
    }
  }

  /** Closes a sign-in in progress (its loopback listener). */
  close(): void {
    this.manager?.cancel();
  }
}
