import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { Figure } from '../lib/figure.js';
import type { InProcess } from '../lib/in-process.js';
import { median, percentile, round } from '../lib/stats.js';

export const MODEL = 'openai/gpt-sandbox';
export const PROMPT = 'Explain in two sentences what an MCP server does.';

/** Exactly the body the chat tool sends for `{ model, prompt, stream }`. */
function chatBody(stream: boolean): string {
  return JSON.stringify({
    model: MODEL,
    stream,
    messages: [{ role: 'user', content: PROMPT }],
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  });
}

/** The direct path: one keep-alive undici Agent, like orbit-mcp's, reading the whole reply. */
function directCaller(baseUrl: string, apiKey: string) {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  return {
    async call(stream: boolean): Promise<void> {
      const res = await request(`${baseUrl}/api/v1/chat/completions`, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          accept: stream ? 'text/event-stream' : 'application/json',
        },
        body: chatBody(stream),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`direct chat: HTTP ${res.statusCode} ${text}`);
    },
    close: () => agent.close(),
  };
}

/** Enough calls for the JIT to settle on both paths: a server lives long, the first calls are not its steady state. */
const WARM_UP_CALLS = 200;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/**
 * What a `chat` call through MCP adds over the same request sent straight to the sandbox: calls
 * interleaved one by one (the order flips every pair), after a warm-up that opens connections
 * and lets the JIT settle. p50 and p99 of each side, and their differences.
 */
export async function measureChatLatency(
  mcp: InProcess,
  baseUrl: string,
  apiKey: string,
  calls: number,
): Promise<Figure[]> {
  const direct = directCaller(baseUrl, apiKey);
  const figures: Figure[] = [];
  try {
    for (const stream of [false, true]) {
      const viaMcp = () =>
        mcp.call('chat', { model: MODEL, prompt: PROMPT, stream }, stream ? () => {} : undefined);
      const straight = () => direct.call(stream);
      for (let i = 0; i < WARM_UP_CALLS; i++) {
        await straight();
        await viaMcp();
      }
      const mcpMs: number[] = [];
      const directMs: number[] = [];
      for (let i = 0; i < calls; i++) {
        if (i % 2 === 0) {
          directMs.push(await timed(straight));
          mcpMs.push(await timed(viaMcp));
        } else {
          mcpMs.push(await timed(viaMcp));
          directMs.push(await timed(straight));
        }
      }
      const label = stream ? 'stream: true (the default)' : 'stream: false';
      for (const p of [50, 99]) {
        const added = percentile(mcpMs, p) - percentile(directMs, p);
        figures.push({
          id: `chat_added_p${p}_${stream ? 'stream' : 'json'}`,
          measure: `chat added latency p${p}, ${label} (${calls} calls each)`,
          unit: 'ms',
          orbit: round(percentile(mcpMs, p), 3),
          baseline: round(percentile(directMs, p), 3),
          added: round(added, 3),
          ...(p === 50 ? { target: '< 0.5 ms added', pass: added < 0.5 } : {}),
          details: {
            via: 'in-process MCP client and server (InMemoryTransport)',
            // Each MCP call against the direct call next to it: robust to slow drift in machine load.
            medianPairedAddedMs: round(median(mcpMs.map((ms, j) => ms - directMs[j]!)), 3),
          },
        });
      }
    }
  } finally {
    await direct.close();
  }
  return figures;
}
