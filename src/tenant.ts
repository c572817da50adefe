import { createHash } from 'node:crypto';
import type { Credential } from './credentials.js';

/**
 * Whose jobs and files a connection sees: fixed (an HTTP caller's key, `local` for a process on
 * its own memory), or worked out at each use where it follows a key that sign-in may change.
 */
export type Tenant = string | (() => string);

export const tenantNow = (tenant: Tenant): string => (typeof tenant === 'string' ? tenant : tenant());

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
 * request is measurable per call: bench/NOTES.md). An entry is found by the exact text hashed, so only a
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
