/** The three kinds of credential of DESIGN.md and where each came from. Values never leave here in results. */
export type CredentialKind = 'api_key' | 'management_token' | 'session';
export type CredentialSource = 'flag' | 'env' | 'store' | 'request' | 'sandbox';

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
  api_key: 'Set ORBIT_API_KEY, sign in with the auth_login tool (or `orbit-mcp login`), or start with --sandbox to try it offline.',
  management_token:
    'Create a management token in the platform account settings and set ORBIT_MANAGEMENT_TOKEN (or `orbit-mcp login --management-token`).',
  session: 'Set ORBIT_SESSION to a signed-in browser session cookie of the platform.',
};

export interface CredentialProvider {
  /** The credential of that kind, or undefined when none is configured. */
  get(kind: CredentialKind): Credential | undefined;
  /** The platform rejected this credential (401): a stored one is discarded so the next call asks to sign in. */
  rejected(credential: Credential): Promise<void>;
  /** Which kinds are present and where from; never values. */
  describe(): CredentialStatus[];
}

/** A fixed set of credentials (env/flags, or one HTTP request's). */
export class StaticCredentials implements CredentialProvider {
  constructor(private readonly credentials: readonly Credential[]) {}

  get(kind: CredentialKind): Credential | undefined {
    return this.credentials.find((credential) => credential.kind === kind);
  }

  async rejected(): Promise<void> {}

  describe(): CredentialStatus[] {
    return CREDENTIAL_KINDS.map((kind) => {
      const credential = this.get(kind);
      return { kind, present: credential !== undefined, source: credential?.source };
    });
  }
}
