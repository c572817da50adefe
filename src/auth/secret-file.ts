import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { defaultConfigDir } from './store.js';

/**
 * New secrets the person must keep (an API key made through the management API) go to a file of
 * their own, never into a result: mode 0600 in a 0700 folder under the config folder, written
 * atomically (temp file + rename), so no other user and no half-written file ever sees them.
 */

/** The folder for new API-key secrets: `<config folder>/api-keys`. */
export const secretsDir = (configDir: string = defaultConfigDir()): string => join(configDir, 'api-keys');

/**
 * One sub-folder per platform (its host and port), so keys of two platforms, or of the sandbox,
 * never share a file name: `<config folder>/api-keys/api.example.com`.
 */
export function platformSecretsDir(baseUrl: string, configDir?: string): string {
  const host = new URL(baseUrl).host.replace(/[^A-Za-z0-9.-]/g, '_');
  return join(secretsDir(configDir), host);
}

/** Writes `secret` to `<dir>/<name>.key` and returns the path; the same name again replaces the file. */
export function writeSecretFile(name: string, secret: string, dir: string = secretsDir()): string {
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name) || name.startsWith('.')) {
    throw new Error(`Not a safe file name for a secret: ${JSON.stringify(name)}.`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // An existing folder keeps its mode through mkdir; a secret folder is private either way.
  chmodSync(dir, 0o700);
  const path = join(dir, `${name}.key`);
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${secret}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
  return path;
}

/** A short fingerprint to recognise a secret by, never to use it: `sha256:` and 12 hex digits. */
export const secretFingerprint = (secret: string): string =>
  `sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 12)}`;
