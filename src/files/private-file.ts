import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';

/**
 * Replaces `path` with `text`, readable by this user only (0600), all or nothing: the text goes to a
 * new temporary file beside it (never an existing one: `wx`), reaches the disk, then takes the
 * name. A crash or a full disk leaves the old file whole, so stored credentials are never corrupted.
 */
export function writePrivateFile(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
}
