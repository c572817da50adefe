import { createHash } from 'node:crypto';
import {
  type Credential,
  type CredentialKind,
  type CredentialProvider,
  type CredentialStatus,
  describeCredentials,
} from '../../../credentials.js';
import { PLATFORM_WORD } from '../../../word.js';
import { MANAGEMENT_TOKEN_HEADER, SESSION_HEADER } from '../endpoint/request.js';

/** A credential's identity without its value: sessions are bound to it, rejections remembered by it. */
export function fingerprint(credential: Credential): string {
  return sha256(credential.value);
}

/** Whose files and jobs a key's callers see: every caller and process with the key, on any replica. */
export function keyTenant(credential: Credential): string {
  return fingerprint(credential).slice(0, 32);
}

/** The identity of everything a caller sent (its key and any admin credential): what a session is bound to. */
export function fingerprintAll(credentials: readonly Credential[]): string {
  let text = '';
  for (const credential of [...credentials].sort((a, b) => a.kind.localeCompare(b.kind)))
    text += `${credential.kind}\n${credential.value}\n`;
  return sha256(text);
}

/** How many recent fingerprints are kept: the callers of the moment, not every key ever seen. */
const MAX_RECENT = 512;
const recent = new Map<string, string>();

/**
 * Every request of a session is fingerprinted, so the callers of the moment keep theirs (a hash per
 * request was about 1% of a call's CPU). An entry is found by the exact text hashed, so only a
 * caller that sent the very same credentials gets it; the oldest leave first.
 */
function sha256(text: string): string {
  let hex = recent.get(text);
  if (hex === undefined) {
    hex = createHash('sha256').update(text).digest('hex');
    recent.set(text, hex);
    if (recent.size > MAX_RECENT) recent.delete(recent.keys().next().value!);
  }
  return hex;
}

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
