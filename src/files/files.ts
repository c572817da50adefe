import { realpath } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { type Tenant, tenantNow } from '../tenant.js';
import { URI_SCHEME } from '../word.js';
import { pathOfFileUri } from './file-uri.js';
import type { KnownMedia, MediaStore } from './media-store.js';
import { expandPath, usableRoots } from './root-paths.js';
import { readInside } from './safe-read.js';
import { mediaTypeOf } from './types.js';

/**
 * Who is on the other end. `local`: a person on this machine (stdio). `remote`: a stranger over
 * HTTP, who may name no server path and sees only its own files.
 */
export type Trust = 'local' | 'remote';

/** A local input: from a path inside the allowed folders, or one of the caller's own media ids. */
interface LocalFile {
  name: string;
  data: Buffer;
  mimeType: string;
}

/** An output this server wrote; it is `orbit://media/{id}`. */
export interface SavedFile {
  id: string;
  uri: string;
  mimeType: string;
  bytes: number;
  /** Its place on disk, given only to a client on this machine (a remote client gets the URI alone). */
  path?: string;
}

/** Where tools read inputs and write outputs, for one connection. */
export interface Files {
  readonly trust: Trust;
  /** Folders local paths may be read from (none over HTTP unless the operator named some). */
  roots(): Promise<string[]>;
  /** A local path or an `orbit://media/{id}` of this caller; refuses (before reading) files above `maxBytes`. */
  read(ref: string, options: { maxBytes: number; purpose: string; argument?: string }): Promise<LocalFile>;
  /**
   * Saves an output as a new file (never replacing one), typed by its content. `url`: where the
   * platform serves the original, for replicas that cannot share a large file's bytes.
   */
  save(data: Buffer, options?: { mimeType?: string; name?: string; url?: string }): Promise<SavedFile>;
  /** This caller's saved files, newest first. */
  list(limit?: number): Promise<SavedFile[]>;
  /** One of this caller's saved files with its bytes, or undefined. */
  open(id: string): Promise<{ file: SavedFile; data: Buffer } | undefined>;
}

/** The process-wide part: where outputs go, which folders the operator shares, the media registry. */
export interface FilesConfig {
  outputDir: string;
  /** Folders the operator names (`--allow-dir`): readable over stdio, and the only ones over HTTP. */
  allowDirs?: readonly string[];
  media: MediaStore;
}

/** The client's roots as directory paths, or undefined when the client offers none. */
export type RootsSource = () => Promise<string[] | undefined>;

export interface FilesScope {
  trust: Trust;
  /** `local`, or the key's fingerprint (over HTTP, or stdio on a shared store). */
  tenant: Tenant;
  /** The client's MCP roots; used only for a local client (a remote client's roots name its own machine). */
  clientRoots?: RootsSource;
  warn?: (message: string) => void;
}

/** A saved file small enough to be inlined is kept this long for the result that follows. */
const JUST_SAVED_MS = 1_000;
const JUST_SAVED_MAX_BYTES = 768 * 1024;

export const mb = (bytes: number): string => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

const MEDIA_URI = new RegExp(`^${URI_SCHEME}://media/([a-f0-9]{32})$`);

/** Where a tenant's outputs go: the output folder over stdio, a private sub-folder per key over HTTP. */
export function outputFolder(
  config: Pick<FilesConfig, 'outputDir'>,
  scope: { trust: Trust; tenant: string },
): string {
  return scope.trust === 'local' ? config.outputDir : join(config.outputDir, 'tenants', scope.tenant);
}

export function createFiles(config: FilesConfig, scope: FilesScope): Files {
  const refused = new Set<string>();
  const roots = async (): Promise<string[]> => {
    const offered = scope.trust === 'local' ? await scope.clientRoots?.().catch(() => undefined) : undefined;
    const named =
      scope.trust === 'local' ? [config.outputDir, ...(config.allowDirs ?? [])] : config.allowDirs;
    return usableRoots([...(offered ?? []), ...(named ?? [])], (root, reason) => {
      if (refused.has(root)) return;
      refused.add(root);
      scope.warn?.(`not reading files under ${root}: it is ${reason}`);
    });
  };
  const shown = (entry: KnownMedia): SavedFile => ({
    id: entry.id,
    uri: `${URI_SCHEME}://media/${entry.id}`,
    mimeType: entry.mimeType,
    bytes: entry.bytes,
    ...(scope.trust === 'local' && entry.path ? { path: entry.path } : {}),
  });
  // The files a call just saved, kept for the few moments until its result inlines them: the
  // bytes are not read back from disk (bounded: a result inlines at most a few small files).
  const justSaved = new Map<string, { file: SavedFile; data: Buffer }>();
  const open = async (id: string) => {
    const recent = justSaved.get(id);
    // Handed over once: the result that inlines it is the only reader it is kept for.
    if (recent) {
      justSaved.delete(id);
      return recent;
    }
    const found = await config.media.read(tenantNow(scope.tenant), id);
    if (found && 'tooLarge' in found) {
      // Written by another replica and too large to share through the store.
      throw new InputError(
        `${URI_SCHEME}://media/${id} (${mb(found.entry.bytes)}) was saved by another replica of this server and is too large to share between replicas.`,
        {
          fix: found.entry.url
            ? `Use the platform's URL of the original instead: ${found.entry.url}`
            : 'Pass the https URL from the result that made it instead.',
        },
      );
    }
    return found && { file: shown(found.entry), data: found.data };
  };

  return {
    trust: scope.trust,
    roots,
    async read(ref, { maxBytes, purpose, argument = 'file' }): Promise<LocalFile> {
      const tooBig = (size: number) =>
        new InputError(
          `\`${argument}\` is ${mb(size)}; ${purpose} takes at most ${mb(maxBytes)} as an upload.`,
          {
            fix: 'Upload the file somewhere public and pass its https URL instead.',
            param: argument,
          },
        );
      const mediaId = MEDIA_URI.exec(ref.trim())?.[1];
      if (mediaId !== undefined) {
        const found = await open(mediaId);
        if (!found) {
          throw new InputError(`\`${argument}\`: no file ${ref} was made for you by this server.`, {
            fix: `Pass an ${URI_SCHEME}://media/ id from one of your own earlier results, an https URL or a data: URL.`,
            param: argument,
          });
        }
        if (found.data.length > maxBytes) throw tooBig(found.data.length);
        return { name: basename(found.file.uri), data: found.data, mimeType: found.file.mimeType };
      }
      const path = pathOfFileUri(ref.trim(), argument);
      const allowed = await roots();
      if (scope.trust === 'remote') return readRemote(path, allowed, { maxBytes, argument, tooBig });
      const wanted = expandPath(path, allowed[0] ?? config.outputDir);
      const outcome = await readInside(wanted, allowed, maxBytes);
      if (outcome.ok) return named(outcome.real, outcome.data);
      if (outcome.reason === 'too_large') throw tooBig(outcome.size);
      if (outcome.reason === 'outside') {
        throw new InputError(
          `${wanted} is outside the folders this server may read (${(await readableFolders(allowed, config.outputDir)).join(', ')}).`,
          {
            fix: 'Move the file into one of those folders, add its folder as a root in the client or with --allow-dir, or pass a public URL.',
            param: argument,
          },
        );
      }
      throw new InputError(
        outcome.reason === 'missing' ? `No file at ${wanted}.` : `${wanted} is not a regular file.`,
        {
          fix: 'Check the path (absolute, or relative to the first root), or pass a URL.',
          param: argument,
        },
      );
    },
    async save(data, options = {}): Promise<SavedFile> {
      const type = mediaTypeOf(data, options.mimeType, options.name);
      const tenant = tenantNow(scope.tenant);
      const entry = await config.media.write(
        outputFolder(config, { trust: scope.trust, tenant }),
        tenant,
        data,
        type,
        options.url,
      );
      const file = shown(entry);
      if (data.length <= JUST_SAVED_MAX_BYTES) {
        justSaved.set(entry.id, { file, data });
        setTimeout(() => justSaved.delete(entry.id), JUST_SAVED_MS).unref();
      }
      return file;
    },
    list: async (limit) => (await config.media.list(tenantNow(scope.tenant), limit)).map(shown),
    open,
  };
}

/**
 * The folders a local refusal names: the usable roots, and the output folder even before its first
 * file makes it exist (files saved there are readable; "none" sent people looking elsewhere).
 */
async function readableFolders(allowed: readonly string[], outputDir: string): Promise<string[]> {
  const output = resolve(outputDir);
  const exists = await realpath(output).then(
    () => true,
    () => false,
  );
  return exists || allowed.includes(output)
    ? [...allowed]
    : [...allowed, `${output} (made on the first save)`];
}

function named(real: string, data: Buffer): LocalFile {
  return { name: basename(real), data, mimeType: mediaTypeOf(data, undefined, real).mimeType };
}

/**
 * A remote client names no server path, except inside folders the operator shared on purpose.
 * Every refusal reads the same, so it reveals neither the server's folders nor whether a path exists.
 */
async function readRemote(
  ref: string,
  allowed: readonly string[],
  options: { maxBytes: number; argument: string; tooBig: (size: number) => InputError },
): Promise<LocalFile> {
  const refusal = new InputError(
    allowed.length
      ? `\`${options.argument}\`: no readable file at "${ref}" in the folders this server shares.`
      : `\`${options.argument}\`: this server does not read local paths for remote clients.`,
    {
      fix: `Pass an https URL, a data: URL (base64), or an ${URI_SCHEME}://media/ id from one of your earlier results.`,
      param: options.argument,
    },
  );
  if (!allowed.length || ref.startsWith('~')) throw refusal;
  const outcome = await readInside(expandPath(ref, allowed[0]!), allowed, options.maxBytes);
  if (outcome.ok) return named(outcome.real, outcome.data);
  if (outcome.reason === 'too_large') throw options.tooBig(outcome.size);
  throw refusal;
}
