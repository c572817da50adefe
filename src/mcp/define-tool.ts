import type { z } from 'zod';
import type { ToolCost } from '../budget/paid-call.js';
import type { Toolset } from '../config.js';
import type { ToolContext } from '../context.js';
import type { CredentialKind } from '../credentials.js';
import type { MediaContent } from '../files/content.js';
import type { NextCall } from '../next-call.js';
import type { ViewName } from './apps.js';

export type { Progress, SavedFile, Target, ToolContext } from '../context.js';

/**
 * What one kind of call does to the world. `read` changes nothing and costs nothing; `spend` costs
 * money (paid generation); `write` creates or changes something; `delete` removes something.
 */
export type Nature = 'read' | 'spend' | 'write' | 'delete';

/** The credential a call needs: one of the three kinds, none (public), or optional (a key adds detail). */
type CredentialNeed = CredentialKind | 'none' | 'optional';

/** One operation of a tool: what it needs and what it does. */
export interface OperationSpec {
  nature: Nature;
  credential: CredentialNeed;
  /** Calling twice with the same arguments has no further effect (reads are; a keyed create is). */
  idempotent?: boolean;
}

/** How a call can take long: see `long` below. */
export type LongCall = 'progress' | 'job';

/** Honest hints for the client (MCP tool annotations), derived from the operations. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * Extra content for the client besides structuredContent: images, audio, links, and `media` for
 * one of the caller's saved files, which the renderer turns into inline media (small) plus a link.
 */
export type ExtraContent = MediaContent | { type: 'media'; uri: string };

interface ToolCommon<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  /** What it does, when to use it, what comes back, what to call next. Short: every word costs tokens. */
  description: string;
  toolset: Toolset;
  input: I;
  output: O;
  /** Works on this machine only (sign-in state), never reaching the platform. */
  local?: boolean;
  /** The MCP Apps view that shows its result (`ui://orbit/<view>`), for hosts that render views. */
  view?: ViewName;
  /**
   * One of the few tools most requests start from: clients that defer tools behind a search
   * (Claude Code) load it at once (`_meta["anthropic/alwaysLoad"]`). docs/architecture.md says which and why.
   */
  alwaysLoad?: true;
  /**
   * The longest result it can give, in characters, for tools whose results can be long: clients
   * that move long results to a file keep results up to this inline (`_meta["anthropic/maxResultSizeChars"]`).
   */
  resultChars?: number;
  /**
   * A call can take long: it reports progress as it goes, or it waits on a platform job. Over HTTP
   * such a call can outlive its connection, so its stream is made resumable from the start (a
   * client that asked for progress, or any for a job); other calls answer plainly.
   */
  long?: LongCall;
  run(args: z.infer<I>, ctx: ToolContext): Promise<z.infer<O>>;
  /** Compact text for the model; defaults to JSON of the result. */
  text?(result: z.infer<O>): string;
  /**
   * Output fields that carry text fetched from the web (pages, search answers, data calls,
   * transcripts): cleaned, fenced in the text and named in `_meta` (src/untrusted.ts).
   */
  untrusted?: readonly (keyof z.infer<O> & string)[] | ((result: z.infer<O>) => readonly string[]);
  /** Media and links to send along with the result. */
  content?(result: z.infer<O>): ExtraContent[];
  /** For a tool that spends: what a call cost, what it may cost, a cost that comes later (src/budget/paid-call.ts). */
  cost?: ToolCost<z.infer<I>, z.infer<O>, ToolContext>;
  /**
   * For a tool that writes, spends or deletes: the read that shows what a call did, named instead
   * of "call again" when the platform accepted it but its reply could not be read, or when it may
   * have run (src/mcp/writes.ts), or when a paid call's result fails its output (src/mcp/render.ts).
   */
  check?(args: z.infer<I>): NextCall;
  /**
   * An address the person pasted back from a browser that could not reach this machine, carried
   * by one of its arguments: the sign-in step finishes the flow in progress with it.
   */
  pastedSignIn?(args: z.infer<I>): string | undefined;
}

/**
 * A tool does one kind of thing (`nature`, `credential`), or it is one half of a read/write pair
 * (github-mcp-server's `issue_read` / `issue_write`): `operations` names each operation of its
 * `operation` argument with what that operation needs and does, so the tool's hints hold for every
 * call it can make, and read-only mode hides every tool that can write.
 */
export type ToolSpec<I extends z.ZodObject, O extends z.ZodObject> = ToolCommon<I, O> &
  (({ operations?: undefined } & OperationSpec) | { operations: Record<string, OperationSpec> });

/**
 * `resultChars` of the tools whose results can be long: above what any of them puts inline (a
 * data reply: 32 KiB structured and 4,000 characters of text; a transcript: 20,000 characters and
 * its first words and segments; video links: 10 transcripts of 6,000), under Claude Code's 500,000.
 */
export const LONG_RESULT_CHARS = 200_000;

/** The normalized form every tool takes once defined. */
export interface AnyTool extends ToolCommon<z.ZodObject, z.ZodObject> {
  /** Each operation by its `operation` value; a one-purpose tool has the single key `call`. */
  operations: Readonly<Record<string, OperationSpec>>;
  /** True for a read/write pair tool, whose input carries `operation`. */
  paired: boolean;
  annotations: ToolAnnotations;
}

/** The operation a call makes. */
export function operationOf(tool: AnyTool, args: unknown): OperationSpec {
  if (!tool.paired) return tool.operations.call!;
  const name = (args as { operation?: unknown } | undefined)?.operation;
  return (typeof name === 'string' && tool.operations[name]) || mostDemanding(tool);
}

/** Keeps the types of input and output together, and derives the hints from what the tool does. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>): AnyTool {
  const { operations: declared, ...rest } = spec as ToolCommon<I, O> & {
    operations?: Record<string, OperationSpec>;
  } & Partial<OperationSpec>;
  const operations = declared ?? {
    call: { nature: rest.nature!, credential: rest.credential!, idempotent: rest.idempotent },
  };
  const tool = {
    ...(rest as unknown as ToolCommon<z.ZodObject, z.ZodObject>),
    operations,
    paired: declared !== undefined,
    annotations: annotationsFor(Object.values(operations), spec.local === true),
  };
  return tool;
}

function annotationsFor(operations: readonly OperationSpec[], local: boolean): ToolAnnotations {
  return {
    readOnlyHint: operations.every((op) => op.nature === 'read'),
    destructiveHint: operations.some((op) => op.nature === 'delete'),
    idempotentHint: operations.every((op) => op.nature === 'read' || op.idempotent === true),
    openWorldHint: !local,
  };
}

/** When the operation is unreadable (arguments not parsed yet), assume the one that needs the most. */
function mostDemanding(tool: AnyTool): OperationSpec {
  const rank: Record<Nature, number> = { read: 0, write: 1, spend: 2, delete: 3 };
  return Object.values(tool.operations).sort((a, b) => rank[b.nature] - rank[a.nature])[0]!;
}
