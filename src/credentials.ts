import { PLATFORM_WORD } from './word.js';

/** The three kinds of credential of DESIGN.md and where each came from. Values never leave here in results. */
export type CredentialKind = 'api_key' | 'management_token' | 'session';
type CredentialSource = 'flag' | 'env' | 'store' | 'request' | 'sandbox';

export interface Credential {
  kind: CredentialKind;
  value: string;
  source: CredentialSource;
}

export interface CredentialStatus {
  kind: CredentialKind;
  present: boolean;
  source?: CredentialSource;
}

export const CREDENTIAL_KINDS: readonly CredentialKind[] = ['api_key', 'management_token', 'session'];

/** How to get each kind when it is missing; shown in errors. */
export const HOW_TO_GET: Record<CredentialKind, string> = {
  api_key:
    'Set ORBIT_API_KEY, sign in with the auth_login tool (or `orbit-mcp login`), or start with --sandbox to try it offline.',
  management_token:
    'Create a management token in the platform account settings and set ORBIT_MANAGEMENT_TOKEN (or `orbit-mcp login --management-token`).',
  session: `Copy the \`${PLATFORM_WORD}_session\` cookie of a signed-in browser on the platform and set ORBIT_SESSION to it (or pipe it to \`orbit-mcp login --session\`).`,
};

/** How to supply a missing kind where these credentials come from (a remote caller sends headers). */
export function howToGet(credentials: CredentialProvider, kind: CredentialKind): string {
  return credentials.howToGet?.(kind) ?? HOW_TO_GET[kind];
}

/**
 * Thrown by a prompt when the question must first go to the person and the call will be made
 * again with the answer (MCP's input_required): passes through sign-in untouched.
 */
export class AskFirst extends Error {}

/** How one tool call can reach the person during sign-in; built by the MCP layer for each call. */
export interface SignInPrompt {
  signal: AbortSignal;
  /** A progress message a person can read (a no-op when the caller asked for no progress). */
  progress(message: string): void;
  /**
   * URL elicitation, present when the client supports it: the link goes to the person, never
   * into the model's context. `completed()` tells the client the sign-in finished. May throw
   * AskFirst: the link goes out now and the call comes back with the person's answer.
   */
  showUrl?(
    message: string,
    url: string,
  ): Promise<{ action: 'accept' | 'decline' | 'cancel'; completed(): Promise<void> }>;
  /**
   * Form elicitation, present when the client can show a form: asks the person for the address
   * their browser ended on (when it could not reach this machine). The text, or undefined when
   * they declined. `signal` withdraws the question (the sign-in finished another way). May throw
   * AskFirst, as showUrl may.
   */
  askPaste?(message: string, signal: AbortSignal): Promise<string | undefined>;
  /** An address the person pasted, handed to this call (auth_login's `callback_url`). */
  pasted?: string;
}

export interface CredentialProvider {
  /** The credential of that kind, or undefined when none is configured. */
  get(kind: CredentialKind): Credential | undefined;
  /** The platform rejected this credential (401): a stored one is discarded so the next call asks to sign in. */
  rejected(credential: Credential): Promise<void>;
  /** Which kinds are present and where from; never values. */
  describe(): CredentialStatus[];
  /** How to supply a missing kind, where it differs from HOW_TO_GET (a remote caller sends headers). */
  howToGet?(kind: CredentialKind): string;
  /**
   * Present only where this process may sign the person in (stdio against a platform): obtains
   * an API key through the browser, or throws an error that says what to do next.
   */
  signIn?(prompt: SignInPrompt): Promise<void>;
  /** Present only where this process stores credentials: removes them and says which kinds went. */
  forget?(): Promise<CredentialKind[]>;
}

/** A fixed set of credentials (env/flags, or one HTTP request's). */
export class StaticCredentials implements CredentialProvider {
  constructor(private readonly credentials: readonly Credential[]) {}

  get(kind: CredentialKind): Credential | undefined {
    return this.credentials.find((credential) => credential.kind === kind);
  }

  async rejected(): Promise<void> {}

  describe(): CredentialStatus[] {
    return describeCredentials(this);
  }
}

/** Which kinds a provider has and where from, never values. */
export function describeCredentials(provider: Pick<CredentialProvider, 'get'>): CredentialStatus[] {
  return CREDENTIAL_KINDS.map((kind) => {
    const credential = provider.get(kind);
    return { kind, present: credential !== undefined, source: credential?.source };
  });
}
