import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { z } from 'zod';
import { CREDENTIAL_KINDS, type CredentialKind } from '../credentials.js';
import { writePrivateFile } from '../files/private-file.js';
import { ENV_PREFIX } from '../word.js';

/**
 * The per-user credential file: keys from sign-in (and the management token and session when set
 * with the CLI), one entry per platform base URL so a key is only ever sent where it was issued.
 * Mode 0600 in a 0700 directory, written atomically (temp file + rename). Values never leave
 * this module except through `get`.
 */

const CONFIG_DIR_ENV = `${ENV_PREFIX}CONFIG_DIR`;
const FILE_NAME = 'credentials.json';

const Entry = z.object({
  value: z.string().min(1),
  obtained_at: z.string().optional(),
  scope: z.string().optional(),
  user_id: z.string().optional(),
  via: z.enum(['sign-in', 'cli']).optional(),
});
export type StoredEntry = z.infer<typeof Entry>;

const Platform = z.object({
  api_key: Entry.optional(),
  management_token: Entry.optional(),
  session: Entry.optional(),
});
type PlatformEntries = z.infer<typeof Platform>;

const FileSchema = z.object({ version: z.literal(1), platforms: z.record(z.string(), Platform) });
type StoreFile = z.infer<typeof FileSchema>;

const empty = (): StoreFile => ({ version: 1, platforms: {} });

/** What is stored for one platform, without the values. */
export interface StoredPlatform {
  platform: string;
  entries: Array<{ kind: CredentialKind } & Omit<StoredEntry, 'value'>>;
}

function summarise(data: StoreFile): StoredPlatform[] {
  return Object.entries(data.platforms).flatMap(([platform, stored]) => {
    const entries = CREDENTIAL_KINDS.flatMap((kind) => {
      const entry = stored[kind];
      if (!entry) return [];
      const { value: _value, ...meta } = entry;
      return [{ kind, ...meta }];
    });
    return entries.length ? [{ platform, entries }] : [];
  });
}

/** Where the file lives: `ORBIT_CONFIG_DIR`, else the OS config folder (XDG_CONFIG_HOME on Linux). */
export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[CONFIG_DIR_ENV];
  if (override) return override;
  return envPaths('orbit-mcp', { suffix: '' }).config;
}

export class CredentialStore {
  readonly path: string;
  private cache: { stamp: string; data: StoreFile; corrupt: boolean } | undefined;

  constructor(
    readonly dir: string = defaultConfigDir(),
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.path = join(dir, FILE_NAME);
  }

  /** The stored entry of one kind for one platform, if any. */
  get(platform: string, kind: CredentialKind): StoredEntry | undefined {
    return this.read().data.platforms[platform]?.[kind];
  }

  /** Which kinds are stored for a platform. */
  kinds(platform: string): CredentialKind[] {
    const entries = this.read().data.platforms[platform] ?? {};
    return (Object.keys(entries) as CredentialKind[]).filter((kind) => entries[kind] !== undefined);
  }

  set(platform: string, kind: CredentialKind, entry: StoredEntry): void {
    this.update((data) => {
      data.platforms[platform] = { ...data.platforms[platform], [kind]: entry };
    });
  }

  /** Removes one kind, only if it still holds `value` when given (another process may have signed in since). */
  delete(platform: string, kind: CredentialKind, value?: string): boolean {
    let removed = false;
    this.update((data) => {
      const entries: PlatformEntries | undefined = data.platforms[platform];
      const entry = entries?.[kind];
      if (!entries || !entry || (value !== undefined && entry.value !== value)) return;
      delete entries[kind];
      if (Object.keys(entries).length === 0) delete data.platforms[platform];
      removed = true;
    });
    return removed;
  }

  /** Removes everything stored for one platform; returns the kinds removed. */
  forget(platform: string): CredentialKind[] {
    const kinds = this.kinds(platform);
    if (kinds.length === 0) return [];
    this.update((data) => {
      delete data.platforms[platform];
    });
    return kinds;
  }

  /** Every platform with stored credentials, and what is stored for it; never values. */
  list(): StoredPlatform[] {
    return summarise(this.read().data);
  }

  /** Removes every platform's credentials; returns what was removed. */
  forgetAll(): StoredPlatform[] {
    let removed: StoredPlatform[] = [];
    if (this.stat() === undefined) return removed;
    this.update((data) => {
      removed = summarise(data);
      data.platforms = {};
    });
    return removed;
  }

  /** Deletes the file. */
  clear(): boolean {
    const existed = this.stat() !== undefined;
    rmSync(this.path, { force: true });
    this.cache = undefined;
    return existed;
  }

  private stat(): string | undefined {
    try {
      const s = statSync(this.path);
      return `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch {
      return undefined;
    }
  }

  /** Reads the file (cached while it is unchanged). A corrupt file reads as empty, with a warning. */
  private read(): { data: StoreFile; corrupt: boolean } {
    const stamp = this.stat();
    if (stamp === undefined) {
      this.cache = undefined;
      return { data: empty(), corrupt: false };
    }
    if (this.cache?.stamp === stamp)
      return { data: structuredClone(this.cache.data), corrupt: this.cache.corrupt };
    let parsed: StoreFile | undefined;
    let problem = '';
    try {
      const result = FileSchema.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
      if (result.success) parsed = result.data;
      else problem = `unexpected content at ${result.error.issues[0]?.path.join('.') || 'top level'}`;
    } catch (error) {
      problem = error instanceof SyntaxError ? 'not valid JSON' : (error as Error).message;
    }
    if (!parsed) {
      // Warn once per version of the file, not on every lookup.
      this.warn(`Ignoring the credential file ${this.path}: ${problem}. Sign in again to replace it.`);
      this.cache = { stamp, data: empty(), corrupt: true };
      return { data: empty(), corrupt: true };
    }
    this.cache = { stamp, data: parsed, corrupt: false };
    return { data: structuredClone(parsed), corrupt: false };
  }

  /** Read, change, write under the file's lock: two processes signing in at once both keep their entry. */
  private update(mutate: (data: StoreFile) => void): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const release = lockFile(`${this.path}.lock`);
    try {
      // Under the lock, read the file itself: a reused inode with the same size and mtime could
      // make the cached stamp look current.
      this.cache = undefined;
      this.change(mutate);
    } finally {
      release();
    }
  }

  private change(mutate: (data: StoreFile) => void): void {
    const { data, corrupt } = this.read();
    if (corrupt) {
      // Never replace a file we could not read without keeping it: move it aside first.
      const aside = `${this.path}.corrupt-${Date.now()}`;
      renameSync(this.path, aside);
      this.warn(`Moved the unreadable credential file to ${aside}.`);
    }
    mutate(data);
    this.write(data);
  }

  private write(data: StoreFile): void {
    writePrivateFile(this.path, `${JSON.stringify(data, null, 2)}\n`);
    this.cache = undefined;
  }
}

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 5_000;

/**
 * An exclusive lock file (created with O_EXCL), waited for synchronously: the store's callers are
 * synchronous and hold it for one small write. Returns the release function.
 */
function lockFile(path: string): () => void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = lockAge(path);
    if (age !== undefined && age > STALE_LOCK_MS) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `The credential file is locked by another orbit-mcp process (${path}). If none is running, delete that file.`,
      );
    }
    Atomics.wait(pause, 0, 0, 5 + Math.random() * 10);
  }
}

function lockAge(path: string): number | undefined {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}
