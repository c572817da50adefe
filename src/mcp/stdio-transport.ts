import type { Readable, Writable } from 'node:stream';
import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

/**
 * One stdio message may hold inline media: the spec takes image references up to 30 MB, which is
 * 40 MB as base64, so the bound sits above that.
 */
const MAX_STDIO_MESSAGE_BYTES = 64 * 1_048_576;

/** Bytes kept of an oversized line's start and end, to find the request id it carried. */
const EDGE_BYTES = 512;

/**
 * Newline-delimited JSON-RPC over stdin/stdout. A message over the bound is answered with a
 * JSON-RPC error naming the bound and the way around it, and the server carries on: nothing in
 * flight is lost (the SDK's own reader throws past 10 MB and leaves the stream out of step).
 * Chunks are gathered in a list, so a large message costs one copy, not one per chunk.
 */
export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private chunks: Buffer[] = [];
  private size = 0;
  private oversized: { head: Buffer; tail: Buffer; size: number } | undefined;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxBytes = MAX_STDIO_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.once('end', this.onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.output.write(`${JSON.stringify(message)}\n`)) return;
    await new Promise<void>((resolve) => this.output.once('drain', resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const newline = data.indexOf(10, start);
      if (newline === -1) {
        this.append(data.subarray(start));
        return;
      }
      this.append(data.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onEnd = (): void => {
    void this.close();
  };

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.oversized) {
      this.oversized.size += part.length;
      this.oversized.tail = Buffer.concat([this.oversized.tail, part]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.size + part.length <= this.maxBytes) {
      this.chunks.push(part);
      this.size += part.length;
      return;
    }
    const all = Buffer.concat([...this.chunks, part]);
    this.oversized = { head: all.subarray(0, EDGE_BYTES), tail: all.subarray(-EDGE_BYTES), size: all.length };
    this.chunks = [];
    this.size = 0;
  }

  private endLine(): void {
    const oversized = this.oversized;
    const line = oversized ? '' : Buffer.concat(this.chunks, this.size).toString('utf8');
    this.chunks = [];
    this.size = 0;
    this.oversized = undefined;
    if (oversized) {
      this.refuse(oversized);
      return;
    }
    const text = line.replace(/\r$/, '');
    if (!text.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(JSON.parse(text));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.send(errorReply(null, -32700, 'Parse error: the line is not a JSON-RPC message.'));
      return;
    }
    this.onmessage?.(message);
  }

  private refuse(oversized: { head: Buffer; tail: Buffer; size: number }): void {
    const id = requestIdIn(oversized.head.toString('utf8'), oversized.tail.toString('utf8'));
    const mib = (bytes: number) => `${Math.ceil(bytes / 1_048_576)} MB`;
    this.onerror?.(new Error(`refused a stdio message of ${mib(oversized.size)}`));
    void this.send(
      errorReply(
        id,
        -32600,
        `The message is ${mib(oversized.size)}, over this server's limit of ${mib(this.maxBytes)} for one message. Pass large media as a local file path or an https URL instead of inline data.`,
      ),
    );
  }
}

function errorReply(id: string | number | null, code: number, message: string): JSONRPCMessage {
  // JSON-RPC answers with id null when the request's id cannot be read.
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}

const ID = '"id"\\s*:\\s*(-?\\d+|"(?:[^"\\\\]|\\\\.)*")';
/** The top-level id: the first key of the object, or the last one (where SDK clients put it). */
function requestIdIn(head: string, tail: string): string | number | null {
  const found =
    new RegExp(`^\\s*\\{\\s*(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?${ID}`).exec(head)?.[1] ??
    new RegExp(`${ID}\\s*\\}\\s*$`).exec(tail)?.[1];
  if (found === undefined) return null;
  return found.startsWith('"') ? (JSON.parse(found) as string) : Number(found);
}
