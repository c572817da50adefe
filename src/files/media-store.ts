import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, mkdir, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { SharedMedia, SharedMediaEntry } from './media-shared.js';
import { readOwnFile } from './safe-read.js';

/** A file this server wrote, and whose it is. */
export interface MediaEntry {
  /** Random, unguessable: knowing one id tells nothing of another. */
  id: string;
  /** Who may see it: `local` (a process on its own memory), else a key fingerprint. */
  tenant: string;
  path: string;
  mimeType: string;
  bytes: number;
  /** The written file's identity: a file swapped in under the same name is not served. */
  dev: number;
  ino: number;
  /** Changes with any write, and tells a new file on a reused inode from the one written. */
  ctimeMs: number;
  createdAt: number;
}

export interface MediaLimits {
  /** Files remembered per tenant; the oldest is forgotten (and, when `deleteEvicted`, removed) past it. */
  perTenant: number;
  /** Bytes kept per tenant, same rule. */
  bytesPerTenant: number;
  /** Files remembered in all. */
  total: number;
}

const DEFAULT_LIMITS: MediaLimits = { perTenant: 500, bytesPerTenant: 1024 * 1_048_576, total: 20_000 };

/** A file as any replica may show it: the local entry, or what the shared store knows. */
export type KnownMedia = Pick<MediaEntry, 'id' | 'tenant' | 'mimeType' | 'bytes' | 'createdAt'> & {
  /** On this replica's disk (absent for a file another replica wrote). */
  path?: string;
  /** The platform's URL of the original, when the tool gave one. */
  url?: string;
};

/**
 * The registry behind `orbit://media/{id}`: only files this server wrote, each visible to its
 * tenant alone. Bounded; over HTTP the files of a forgotten entry are removed too, so a remote
 * client cannot fill the server's disk. With a shared store, every replica also lists the files
 * the others wrote and serves the small ones from the store (see SharedMedia).
 */
export class MediaStore {
  private readonly entries = new Map<string, MediaEntry>();
  private readonly limits: MediaLimits;

  constructor(
    limits: Partial<MediaLimits> = {},
    private readonly deleteEvicted: (entry: MediaEntry) => boolean = () => false,
    private readonly shared?: SharedMedia,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Writes `data` as a new file in `dir` (never replacing or following anything) and records it. */
  async write(
    dir: string,
    tenant: string,
    data: Buffer,
    type: { mimeType: string; ext: string },
    url?: string,
  ): Promise<MediaEntry> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const folder = await lstat(dir);
    if (!folder.isDirectory()) throw new Error(`The output folder ${dir} is not a plain folder.`);
    for (;;) {
      const id = randomBytes(16).toString('hex');
      const path = join(dir, `${id}.${type.ext}`);
      const written = await writeExclusive(dir, path, data);
      if (!written) continue;
      const entry: MediaEntry = {
        id,
        tenant,
        path,
        mimeType: type.mimeType,
        bytes: data.length,
        dev: written.dev,
        ino: written.ino,
        ctimeMs: written.ctimeMs,
        createdAt: Date.now(),
      };
      this.entries.set(id, entry);
      this.enforceLimits(tenant);
      // Shared before the result that names it goes out, so any replica can serve it next.
      await this.shared?.put(
        { id, tenant, mimeType: type.mimeType, bytes: data.length, createdAt: entry.createdAt, url },
        data,
      );
      return entry;
    }
  }

  get(tenant: string, id: string): MediaEntry | undefined {
    const entry = this.entries.get(id);
    return entry?.tenant === tenant ? entry : undefined;
  }

  /** The tenant's files, newest first (every replica's, with a shared store). */
  async list(tenant: string, limit = 50): Promise<KnownMedia[]> {
    if (this.shared) return (await this.shared.list(tenant, limit)).map((entry) => this.known(entry));
    const mine: MediaEntry[] = [];
    for (const entry of this.entries.values()) if (entry.tenant === tenant) mine.push(entry);
    return mine.reverse().slice(0, limit);
  }

  /**
   * The bytes of the tenant's file, or undefined when it is unknown or no longer the file written.
   * A file another replica wrote comes from the shared store; one too large to share is `too_large`
   * with its entry (and the platform's URL when known).
   */
  async read(
    tenant: string,
    id: string,
  ): Promise<{ entry: KnownMedia; data: Buffer } | { entry: KnownMedia; tooLarge: true } | undefined> {
    const entry = this.get(tenant, id);
    if (entry) {
      const data = await readOwnFile(entry.path, entry);
      return data ? { entry, data } : undefined;
    }
    const elsewhere = await this.shared?.get(tenant, id);
    if (!elsewhere) return undefined;
    if (!elsewhere.shared) return { entry: this.known(elsewhere), tooLarge: true };
    const data = await this.shared?.bytes(tenant, id);
    return data ? { entry: this.known(elsewhere), data } : undefined;
  }

  /** This replica's entry when it wrote the file (with its path), else the shared one. */
  private known(entry: SharedMediaEntry): KnownMedia {
    const local = this.get(entry.tenant, entry.id);
    return local ? { ...local, url: entry.url } : entry;
  }

  private enforceLimits(tenant: string): void {
    const mine = [...this.entries.values()].filter((entry) => entry.tenant === tenant);
    let bytes = mine.reduce((sum, entry) => sum + entry.bytes, 0);
    // Map order is insertion order: the first are the oldest; the newest always stays.
    let kept = mine.length;
    for (const entry of mine) {
      if (kept <= 1 || (kept <= this.limits.perTenant && bytes <= this.limits.bytesPerTenant)) break;
      kept--;
      bytes -= entry.bytes;
      this.forget(entry);
    }
    while (this.entries.size > this.limits.total) {
      const oldest = this.entries.values().next().value;
      if (!oldest) break;
      this.forget(oldest);
    }
  }

  private forget(entry: MediaEntry): void {
    this.entries.delete(entry.id);
    if (this.deleteEvicted(entry)) unlink(entry.path).catch(() => {});
  }
}

/**
 * A temporary file created exclusively (a name planted in advance, symlink or not, makes it fail),
 * then hard-linked to its final name, which also fails rather than replace anything there.
 */
async function writeExclusive(
  dir: string,
  path: string,
  data: Buffer,
): Promise<{ dev: number; ino: number; ctimeMs: number } | undefined> {
  const temp = join(dir, `.${randomBytes(12).toString('hex')}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writeFile(data);
    await handle.close();
    try {
      await link(temp, path);
    } catch (error) {
      if ((error as { code?: string }).code === 'EEXIST') return undefined;
      throw error;
    }
    // Taken once the temporary name is gone: linking and unlinking change the file's ctime.
    await unlink(temp);
    const info = await lstat(path);
    return { dev: info.dev, ino: info.ino, ctimeMs: info.ctimeMs };
  } finally {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {});
  }
}
