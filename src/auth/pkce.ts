import { createHash, randomBytes } from 'node:crypto';

/** RFC 7636: the verifier alphabet and length the platform accepts (spec 1 §4.2). */
export const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

const base64url = (bytes: Buffer): string => bytes.toString('base64url');

/** A fresh verifier: 64 random bytes as base64url (86 characters, all in the allowed set). */
export function createVerifier(): string {
  return base64url(randomBytes(64));
}

/** The S256 challenge: base64url of the SHA-256 of the verifier. `plain` is never used. */
export function challengeFor(verifier: string): string {
  if (!VERIFIER_PATTERN.test(verifier))
    throw new Error('code_verifier must be 43..128 characters of A-Z a-z 0-9 - . _ ~');
  return base64url(createHash('sha256').update(verifier, 'ascii').digest());
}

/** An unguessable `state`, checked when the browser comes back. */
export function createState(): string {
  return base64url(randomBytes(32));
}
