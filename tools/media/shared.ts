import { z } from 'zod';
import { mb } from '../../src/files/files.js';
import type { ExtraContent, SavedFile, ToolContext } from '../../src/mcp/define-tool.js';
import type { OnBytes } from '../../src/upstream/client.js';

/**
 * A saved output: its `orbit://media/{id}` URI, and its path on disk for a client on this machine
 * (type and size ride on the resource_link).
 */
export const FileOut = z.object({ path: z.string().optional(), uri: z.string() });
/** The same two fields at the top level of a one-file result (fewer schema tokens than a nested object). */
export const FileFields = { path: z.string().optional(), uri: z.string().optional() };
export type FileOut = z.infer<typeof FileOut>;

/** Where a saved file is, as a line of text: its path when the client shares this machine, else its URI. */
export const whereSaved = (file: Partial<FileOut>): string =>
  file.path ? `${file.path} (${file.uri})` : (file.uri ?? '');

const toFileOut = (saved: SavedFile): FileOut =>
  saved.path ? { path: saved.path, uri: saved.uri } : { uri: saved.uri };

/** Downloads a generated file (temporary URL, often on another host: no credential is sent). */
export async function download(
  ctx: ToolContext,
  url: string,
  what = 'the file',
): Promise<{ data: Buffer; contentType: string }> {
  const res = await ctx.api.bytes({
    method: 'GET',
    path: url,
    credential: 'none',
    headers: { accept: '*/*' },
    onBytes: receiving(ctx, `downloading ${what}`),
  });
  return { data: res.data, contentType: res.contentType };
}

/** Progress while a binary reply arrives: "receiving audio, 48 KB of 120 KB". */
export function receiving(ctx: ToolContext, doing: string): OnBytes {
  return (received, total) =>
    ctx.progress.report(
      `${doing}, ${kilobytes(received)}${total ? ` of ${kilobytes(total)}` : ''}`,
      total ? received / total : undefined,
    );
}

function kilobytes(bytes: number): string {
  return bytes < 1_048_576 ? `${Math.ceil(bytes / 1024)} KB` : mb(bytes);
}

/** `url`: where the platform serves the original (replicas that cannot share a large file point to it). */
export async function saveBytes(
  ctx: ToolContext,
  data: Buffer,
  contentType?: string,
  url?: string,
): Promise<FileOut> {
  return toFileOut(await ctx.files.save(data, { mimeType: contentType, url }));
}

/** Each saved file of a result: the renderer sends image and audio inline (capped) and a resource_link. */
export function filesContent(files: (Partial<FileOut> | undefined)[]): ExtraContent[] {
  return files.flatMap((file) => (file?.uri ? [{ type: 'media' as const, uri: file.uri }] : []));
}

export const optionalNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
