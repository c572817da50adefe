/**
 * Reading and answering one HTTP request of the MCP endpoint: the Host/Origin checks
 * against DNS rebinding, the capped JSON body, and JSON replies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { ALL_TOOLSETS, ConfigSchema, type Toolset } from '../../../config.js';
import { notePayload } from '../../../heap.js';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The SDK's validator reads the name; the port must be this server's too (another local service
 * on another port is another origin).
 */
export function hostAllowed(host: string | undefined, port: number, extra: string[] = []): boolean {
  if (host && extra.includes(host)) return true;
  if (!validateHostHeader(host, LOOPBACK).ok) return false;
  const given = /:(\d+)$/.exec(host!)?.[1];
  return given === undefined || Number(given) === port;
}

/**
 * Browsers send Origin; a page on another site must not reach a local server (DNS rebinding).
 * A page served by a name the operator allowed (`--allowed-hosts`, as `host` or `host:port`) may.
 */
export function originAllowed(origin: string | undefined, port: number, extra: string[] = []): boolean {
  if (!origin) return true;
  try {
    if (extra.includes(new URL(origin).host)) return true;
  } catch {
    return false;
  }
  if (!validateOriginHeader(origin, LOOPBACK).ok) return false;
  return Number(new URL(origin).port || 80) === port;
}

export function parseToolsets(value: string | null): Toolset[] | undefined | Error {
  if (value === null) return undefined;
  const parsed = ConfigSchema.shape.toolsets.safeParse(value);
  if (!parsed.success) return new Error(parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data === 'all' ? [...ALL_TOOLSETS] : parsed.data;
}

/** Inline media arguments (base64 data URLs of a few 4 MB inputs) fit; a flood of bytes does not. */
export const MAX_BODY_BYTES = 16 * 1_048_576;
export const TOO_LARGE = Symbol('too large');

export async function readJson(req: IncomingMessage): Promise<unknown> {
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return TOO_LARGE;
  const raw = await readCapped(req);
  if (raw === TOO_LARGE || raw.length === 0) return raw === TOO_LARGE ? raw : undefined;
  notePayload(raw.length);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return new Error('invalid json');
  }
}

/** The body up to the cap. Past it, reading stops without destroying the socket, so a 413 can still go out. */
function readCapped(req: IncomingMessage): Promise<Buffer | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(TOO_LARGE);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
