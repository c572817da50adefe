import type { IncomingMessage } from 'node:http';
import type { Target } from '../../../context.js';
import {
  type Credential,
  type CredentialKind,
  type CredentialProvider,
  type CredentialStatus,
  describeCredentials,
} from '../../../credentials.js';
import { PLATFORM_WORD } from '../../../word.js';
import { header } from './headers.js';

/**
 * Bearer or x-api-key; with --sandbox an anonymous request gets the demo key, never elsewhere.
 * The key is this request's secret alone: its server redacts it, the process does not keep it.
 */
export function requestCredential(req: IncomingMessage, target: Target): Credential | undefined {
  const auth = header(req, 'authorization');
  const bearer = auth?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const value = bearer ?? header(req, 'x-api-key');
  if (value) return { kind: 'api_key', value, source: 'request' };
  if (target.kind === 'sandbox') return { kind: 'api_key', value: target.demoKey, source: 'sandbox' };
  return undefined;
}

/** Headers that carry the admin credentials a caller may add to its key (never in a URL). */
const MANAGEMENT_TOKEN_HEADER = `x-${PLATFORM_WORD}-management-token`;
const SESSION_HEADER = `x-${PLATFORM_WORD}-session`;

/** The management token and session a caller sent beside its key, for the admin tools. */
export function requestExtras(req: IncomingMessage): Credential[] {
  const extras: Credential[] = [];
  const token = header(req, MANAGEMENT_TOKEN_HEADER);
  if (token) extras.push({ kind: 'management_token', value: token, source: 'request' });
  const session = header(req, SESSION_HEADER);
  if (session) extras.push({ kind: 'session', value: session, source: 'request' });
  return extras;
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
