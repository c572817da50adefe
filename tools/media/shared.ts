import { z } from 'zod';
import { mb } from '../../src/files/files.js';
import type { OnBytes } from '../../src/http/client.js';
import { type JobRecord, jobScope, jobs } from '../../src/jobs/store.js';
import type { ExtraContent, SavedFile, ToolContext } from '../../src/mcp/define-tool.js';

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

export const toFileOut = (saved: SavedFile): FileOut =>
  saved.path ? { path: saved.path, uri: saved.uri } : { uri: saved.uri };

/** How long a plain call waits before handing back the run id (client timeouts are often 60 s). */
export const MaxWait = z.number().default(50).describe('then return run_id');
/** Waits are bounded: at most ten minutes in a plain call. */
const MAX_WAIT_S = 600;

/** As an MCP task a wait may last as long as the job does, within reason. */
const TASK_WAIT_MS = 30 * 60_000;

export function waitBudgetMs(ctx: ToolContext, maxWaitS: number): number {
  return ctx.inTask ? TASK_WAIT_MS : Math.min(Math.max(0, maxWaitS), MAX_WAIT_S) * 1000;
}

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

export async function saveBytes(ctx: ToolContext, data: Buffer, contentType?: string): Promise<FileOut> {
  return toFileOut(await ctx.files.save(data, { mimeType: contentType }));
}

/** A cost header on binary replies (`x-<word>-cost`), matched by pattern, never by the literal word. */
export function costFromHeaders(headers: Record<string, string>): number | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (/^x-[a-z0-9]+-cost$/i.test(name) && Number.isFinite(Number(value))) return Number(value);
  }
  return undefined;
}

/** Each saved file of a result: the renderer sends image and audio inline (capped) and a resource_link. */
export function filesContent(files: (Partial<FileOut> | undefined)[]): ExtraContent[] {
  return files.flatMap((file) => (file?.uri ? [{ type: 'media' as const, uri: file.uri }] : []));
}

export function recordJob(
  ctx: ToolContext,
  patch: Partial<JobRecord> & Pick<JobRecord, 'id' | 'kind'>,
): JobRecord {
  return jobs.upsert(jobScope(ctx), patch);
}

export function knownJob(ctx: ToolContext, id: string): JobRecord | undefined {
  return jobs.get(jobScope(ctx), id);
}

/** "Still running" results: plain data (not an error), with the run id and the call that continues. */
export function nextCall(tool: string, runId: string): string {
  return `${tool} with run_id "${runId}"`;
}

export const optionalNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
