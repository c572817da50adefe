import type { Context } from 'hono';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { sleep } from '../util.js';

/** Default pause between streamed items, so a person trying the sandbox sees the crawl advance. */
const DEFAULT_ITEM_MS = 200;

/**
 * Sends a JSON object whose `key` array arrives item by item, one pause apart. The body is one
 * JSON document with a `Content-Length`, so a client can parse it whole and still show progress
 * from the bytes received.
 */
export function streamJson(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  body: Record<string, unknown>,
  key: string,
): Response {
  const { [key]: items, ...rest } = body;
  const list = Array.isArray(items) ? items : [];
  const restJson = JSON.stringify(rest);
  const head = `${restJson.slice(0, -1)}${restJson === '{}' ? '' : ','}${JSON.stringify(key)}:[`;
  const chunks = [head, ...list.map((item, i) => `${i > 0 ? ',' : ''}${JSON.stringify(item)}`), ']}'];
  const encoder = new TextEncoder();
  const bytes = chunks.map((chunk) => encoder.encode(chunk));
  const total = bytes.reduce((sum, b) => sum + b.byteLength, 0);
  const pause = ctx.timing.crawlPageMs ?? DEFAULT_ITEM_MS;
  const signal = c.req.raw.signal;
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = bytes[index];
      if (!next) return controller.close();
      // Each item is "crawled" before it is sent; the head and the closing bracket go at once.
      if (index > 0 && index < bytes.length - 1) await sleep(pause, signal, ctx.closing);
      index += 1;
      controller.enqueue(next);
    },
  });
  return c.body(stream, 200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(total),
  });
}
