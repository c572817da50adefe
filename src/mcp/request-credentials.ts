import { createHash } from 'node:crypto';
import {
  type Credential,
  type CredentialKind,
  type CredentialProvider,
  type CredentialStatus,
  describeCredentials,
} from '../auth/credentials.js';

/** A credential's identity without its value: sessions are bound to it, rejections remembered by it. */
export function fingerprint(credential: Credential): string {
  return createHash('sha256').update(credential.value).digest('hex');
}

/**
 * Keys the platform refused (401) lately. The HTTP endpoint answers a request bearing one with
 * HTTP 401 `invalid_token`, so an OAuth client signs in again instead of failing call after call.
 * Bounded in size and time: a key is not judged forever on one answer.
 */
export class RejectedKeys {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly max = 10_000,
  ) {}

  add(id: string): void {
    this.until.delete(id);
    this.until.set(id, Date.now() + this.ttlMs);
    if (this.until.size > this.max) this.until.delete(this.until.keys().next().value!);
  }

  has(id: string): boolean {
    const until = this.until.get(id);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(id);
    return false;
  }
}

/**
 * The key one HTTP caller sent. A 401 from the platform on it is reported (only for a key the
 * caller brought, never the sandbox's demo key); after signing in again the caller's session is
 * handed to the new key with `replace`.
 */
export class RequestCredentials implements CredentialProvider {
  constructor(
    private credential: Credential,
    private readonly onRejected: (credential: Credential) => void,
  ) {}

  get(kind: CredentialKind): Credential | undefined {
    return this.credential.kind === kind ? this.credential : undefined;
  }

  async rejected(credential: Credential): Promise<void> {
    if (credential.source === 'request') this.onRejected(credential);
  }

  replace(credential: Credential): void {
    this.credential = credential;
  }

  describe(): CredentialStatus[] {
    return describeCredentials(this);
  }
}
