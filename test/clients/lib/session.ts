import type { DeliveredTool, StrictTool, WorkerInput } from './types.js';

/** What one tool call came back with, read the way the framework hands it to an agent. */
export interface Called {
  isError: boolean;
  /** The text the agent sees (text content, or structured content as JSON). */
  text: string;
  /** Image content blocks that reached the agent. */
  images: number;
}

/** One framework's client, connected to the server. Each driver in drivers/ makes one. */
export interface Session {
  /** package@version of the client under test. */
  version: string;
  /** Tools as the framework hands them to a model. */
  tools(): Promise<DeliveredTool[]>;
  /** The framework's own OpenAI strict-mode conversion, where it has one. */
  strictTools?(): Promise<StrictTool[]>;
  /** Calls a tool the way an agent built on this framework does. */
  call(name: string, args: Record<string, unknown>, onProgress?: (message: string) => void): Promise<Called>;
  /** Why this client cannot report progress, if it cannot. */
  noProgress?: string;
  /** How calls are made, when it is worth saying (e.g. through a mock model). */
  callNote?: string;
  /** What the client's transport reported as errors so far, where the client lets one see them. */
  transportErrors?(): string[];
  close(): Promise<void>;
}

export type Open = (input: WorkerInput) => Promise<Session>;

/** Reads an MCP CallToolResult-shaped value (as most frameworks pass it on) into a `Called`. */
export function fromCallToolResult(result: unknown): Called {
  const record = isRecord(result) ? result : {};
  const content = Array.isArray(record.content) ? record.content.filter(isRecord) : [];
  const texts = content.filter((item) => item.type === 'text').map((item) => String(item.text ?? ''));
  if (texts.length === 0 && record.structuredContent !== undefined)
    texts.push(JSON.stringify(record.structuredContent));
  return {
    isError: record.isError === true,
    text: texts.join('\n'),
    images: content.filter((item) => item.type === 'image' && typeof item.data === 'string').length,
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rejects after `ms` with a message naming what was slow. */
export async function bounded<T>(what: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
