import type { z } from 'zod';
import type { CredentialKind, CredentialProvider } from '../auth/credentials.js';
import type { Toolset } from '../config.js';
import type { MediaContent } from '../files/content.js';
import type { Files } from '../files/files.js';
import type { Api } from '../http/client.js';
import type { Logger } from '../log.js';

export type { Files, LocalFile, SavedFile } from '../files/files.js';

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

/**
 * Extra content for the client besides structuredContent: images, audio, links, and `media` for
 * one of the caller's saved files, which the renderer turns into inline media (small) plus a link.
 */
export type ExtraContent = MediaContent | { type: 'media'; uri: string };

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
