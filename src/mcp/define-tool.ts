import type { z } from 'zod';
import type { CredentialKind, CredentialProvider } from '../auth/credentials.js';
import type { Toolset } from '../config.js';
import type { Api } from '../http/client.js';
import type { Logger } from '../log.js';

/** Honest hints for the client (MCP tool annotations). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Reports progress to the client; a no-op unless the caller sent a progress token. */
export interface Progress {
  /** A readable message; `fraction` in [0,1] when the share done is known. Never goes backwards. */
  report(message: string, fraction?: number): void;
  /** Drops a report still waiting out the throttle, when the result is about to say it all. */
  discard?(): void;
}

/** A local input file, read from inside the allowed roots. */
export interface LocalFile {
  path: string;
  name: string;
  data: Buffer;
  mimeType: string;
}

/** An output saved under the output directory, named by its content. */
export interface SavedFile {
  /** Content-derived id; the file is `orbit://media/{id}`. */
  id: string;
  path: string;
  uri: string;
  mimeType: string;
  bytes: number;
}

/** Where tools read inputs and write outputs (src/files/files.ts). */
export interface Files {
  outputDir: string;
  /** Folders local inputs may come from: the client's MCP roots when offered, else cwd and outputDir. */
  roots(): Promise<string[]>;
  /** Reads a local file inside the roots; refuses (before reading) files above `maxBytes`. */
  read(path: string, options: { maxBytes: number; purpose: string }): Promise<LocalFile>;
  /** Saves an output under outputDir as `<hash>.<ext>`, the extension from the content's type. */
  save(data: Buffer, options?: { mimeType?: string; name?: string }): Promise<SavedFile>;
}

/** Which platform the server talks to; `none` until ORBIT_BASE_URL is set. */
export type Target =
  | { kind: 'platform'; baseUrl: string }
  | { kind: 'sandbox'; baseUrl: string }
  | { kind: 'none' };

/** Everything a tool may use. A tool knows nothing about transports or the SDK. */
export interface ToolContext {
  target: Target;
  api: Api;
  progress: Progress;
  signal: AbortSignal;
  log: Logger;
  credentials: CredentialProvider;
  files: Files;
  /** True when the call runs as an MCP task: waits may then last as long as the job does. */
  inTask?: boolean;
}

/** Extra content for the client besides structuredContent (images, audio, links). */
export type ExtraContent =
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** What it does, when to use it, what comes back, what to call next. Short: every word costs tokens. */
  description: string;
  toolset: Toolset;
  /** The credential it needs; 'none' for public routes, 'optional' when a key only adds detail. */
  credential: CredentialKind | 'none' | 'optional';
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(args: z.infer<I>, ctx: ToolContext): Promise<z.infer<O>>;
  /** Compact text for the model; defaults to JSON of the result. */
  text?(result: z.infer<O>): string;
  /** Media and links to send along with the result. */
  content?(result: z.infer<O>): ExtraContent[];
  /** Also runs as an MCP task when the client asks for one (`execution.taskSupport: 'optional'`). */
  task?: boolean;
}

export type AnyTool = ToolDefinition<z.ZodObject, z.ZodObject>;

/** Identity function that keeps the types of input and output together. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  tool: ToolDefinition<I, O>,
): AnyTool {
  return tool as unknown as AnyTool;
}

/** Common annotation sets, so each tool states its nature in one word. */
export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};
export const SPEND: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};
export const WRITE: ToolAnnotations = SPEND;
export const DELETE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: true,
};
