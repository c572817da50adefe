import {
  type Credential,
  type CredentialKind,
  type CredentialProvider,
  type CredentialStatus,
  describeCredentials,
} from '../../../credentials.js';
import { PLATFORM_WORD } from '../../../word.js';
import { MANAGEMENT_TOKEN_HEADER, SESSION_HEADER } from '../endpoint/request.js';

/**
 * What one HTTP caller sent (its key, and a management token or session for the admin tools), for
 * the life of its session. A 401 from the platform on the key is reported (only for a key the
 * caller brought, never the sandbox's demo key): the session is then told to sign in again, and the
 * client opens a new session with its new key.
 */
export class RequestCredentials implements CredentialProvider {
  constructor(
    private readonly credentials: readonly Credential[],
    private readonly onRejected: (credential: Credential) => void,
  ) {}

  get(kind: CredentialKind): Credential | undefined {
    return this.credentials.find((credential) => credential.kind === kind);
  }

  async rejected(credential: Credential): Promise<void> {
    if (credential.kind === 'api_key' && credential.source === 'request') this.onRejected(credential);
  }

  howToGet(kind: CredentialKind): string {
    if (kind === 'management_token')
      return `Send a management token in the \`${MANAGEMENT_TOKEN_HEADER}\` header of every request, beside your key (create one in the platform account settings).`;
    if (kind === 'session')
      return `Send the \`${PLATFORM_WORD}_session\` cookie of a signed-in browser in the \`${SESSION_HEADER}\` header of every request, beside your key.`;
    return 'Send your API key as `Authorization: Bearer <key>`, or sign in with OAuth.';
  }

  describe(): CredentialStatus[] {
    return describeCredentials(this);
  }
}
