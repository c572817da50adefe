import { createHash } from 'node:crypto';
import {
  type Credential,
  type CredentialKind,
  type CredentialProvider,
  type CredentialStatus,
  describeCredentials,
} from '../credentials.js';

/** A credential's identity without its value: sessions are bound to it, rejections remembered by it. */
export function fingerprint(credential: Credential): string {
  return createHash('sha256').update(credential.value).digest('hex');
}

/**
 * The key one HTTP caller sent, for the life of its session. A 401 from the platform on it is
 * reported (only for a key the caller brought, never the sandbox's demo key): the session is then
 * told to sign in again, and the client opens a new session with its new key.
 */
export class RequestCredentials implements CredentialProvider {
  constructor(
    private readonly credential: Credential,
    private readonly onRejected: (credential: Credential) => void,
  ) {}

  get(kind: CredentialKind): Credential | undefined {
    return this.credential.kind === kind ? this.credential : undefined;
  }

  async rejected(credential: Credential): Promise<void> {
    if (credential.source === 'request') this.onRejected(credential);
  }

  describe(): CredentialStatus[] {
    return describeCredentials(this);
  }
}
