import { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Figure } from '../lib/figure.js';
import type { InProcess } from '../lib/in-process.js';
import { median, percentile, round } from '../lib/stats.js';
import { MODEL, PROMPT } from './latency.js';

/** An SSE frame carrying answer text (the role-only opening chunk carries none). */
const CONTENT_FRAME = /"delta":\{"(?:content|reasoning)":"[^"]/;

/**
 * Records when the sandbox writes its first SSE frame and its first frame with answer text. The
 * sandbox has no write hook, and it runs in this process, so wrapping ServerResponse#write here
 * sees its writes at the moment they are handed to the socket; nothing else in this process
 * serves HTTP while this runs.
 */
function watchWrites() {
  const original = ServerResponse.prototype.write;
  const marks = { firstByte: Number.NaN, firstContent: Number.NaN };
  ServerResponse.prototype.write = function (this: ServerResponse, ...args: Parameters<typeof original>) {
    const now = performance.now();
    const chunk = args[0];
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
    if (Number.isNaN(marks.firstByte)) marks.firstByte = now;
    if (Number.isNaN(marks.firstContent) && CONTENT_FRAME.test(text)) marks.firstContent = now;
    return original.apply(this, args);
  } as typeof original;
  return {
    marks,
    reset() {
      marks.firstByte = Number.NaN;
      marks.firstContent = Number.NaN;
    },
    restore() {
      ServerResponse.prototype.write = original;
    },
  };
}

/**
 * Delay from the sandbox writing the first streamed answer text to the client receiving the first
 * progress notification: the SSE read, parse, state update and notification path of `chat`. The
 * sandbox paces frames (`streamChunkDelayMs`) as a real model would, so frames do not merge.
 */
export async function measureFirstProgress(
  mcp: InProcess,
  calls: number,
  chunkDelayMs: number,
): Promise<Figure> {
  const watch = watchWrites();
  const fromContent: number[] = [];
  const fromFirstByte: number[] = [];
  try {
    for (let i = -10; i < calls; i++) {
      watch.reset();
      let firstProgress = Number.NaN;
      await mcp.call('chat', { model: MODEL, prompt: PROMPT, stream: true }, () => {
        if (Number.isNaN(firstProgress)) firstProgress = performance.now();
      });
      if (Number.isNaN(firstProgress) || Number.isNaN(watch.marks.firstContent)) {
        throw new Error('no progress notification, or no answer text seen on the wire');
      }
      if (i < 0) continue;
      fromContent.push(firstProgress - watch.marks.firstContent);
      fromFirstByte.push(firstProgress - watch.marks.firstByte);
    }
  } finally {
    watch.restore();
  }
  return {
    id: 'first_progress',
    measure: `Sandbox's first streamed answer byte to first progress at the client (median of ${calls})`,
    unit: 'ms',
    orbit: round(median(fromContent), 3),
    details: {
      p99Ms: round(percentile(fromContent, 99), 3),
      fromFirstSseByteMedianMs: round(median(fromFirstByte), 3),
      note: `first SSE frame is the role-only chunk; answer text follows it after streamChunkDelayMs=${chunkDelayMs}`,
    },
  };
}
