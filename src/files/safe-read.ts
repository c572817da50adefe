import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { isInside } from './root-paths.js';

type ReadRefusal =
  | { reason: 'missing' }
  | { reason: 'not_a_file' }
  | { reason: 'outside' }
  | { reason: 'too_large'; size: number };

export type ReadOutcome = { ok: true; real: string; data: Buffer } | ({ ok: false } & ReadRefusal);

// O_NONBLOCK: opening a FIFO must not hang the call; it is refused as not a regular file.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Reads a file only when the file actually opened lies inside one of `realRoots`. The check is
 * made on the open handle, not on the name, and the bytes come from that same handle: swapping a
 * folder for a symlink between check and read cannot redirect the read outside the roots.
 */
export async function readInside(
  path: string,
  realRoots: readonly string[],
  maxBytes: number,
): Promise<ReadOutcome> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { ok: false, reason: 'not_a_file' };
    const real = await openedPath(handle, path, info);
    if (real === undefined || !realRoots.some((root) => isInside(real, root)))
      return { ok: false, reason: 'outside' };
    if (info.size > maxBytes) return { ok: false, reason: 'too_large', size: info.size };
    const data = await readUpTo(handle, maxBytes);
    if (data === undefined) return { ok: false, reason: 'too_large', size: maxBytes + 1 };
    return { ok: true, real, data };
  } finally {
    await handle.close().catch(() => {});
  }
}

/**
 * Where the open file really is. On Linux the kernel says it through the handle itself; elsewhere
 * the name is resolved again and must lead to the very file (device and inode) that was opened.
 */
async function openedPath(handle: FileHandle, path: string, info: Stats): Promise<string | undefined> {
  const viaHandle = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (viaHandle?.startsWith('/') && !viaHandle.endsWith(' (deleted)')) return viaHandle;
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  const now = await stat(real).catch(() => undefined);
  return now && now.dev === info.dev && now.ino === info.ino ? real : undefined;
}

/** The whole file, or undefined when it holds more than `maxBytes` (it may grow after the stat). */
async function readUpTo(handle: FileHandle, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1_048_576, maxBytes + 1 - total) || 1);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) return undefined;
    chunks.push(chunk.subarray(0, bytesRead));
  }
  return Buffer.concat(chunks, total);
}

/** Opens a file this server wrote, only if it is still that very file (no symlink, same inode, untouched). */
export async function readOwnFile(
  path: string,
  identity: { dev: number; ino: number; ctimeMs: number },
): Promise<Buffer | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    const same = info.dev === identity.dev && info.ino === identity.ino && info.ctimeMs === identity.ctimeMs;
    if (!info.isFile() || !same) return undefined;
    return (await readUpTo(handle, info.size)) ?? undefined;
  } finally {
    await handle.close().catch(() => {});
  }
}
