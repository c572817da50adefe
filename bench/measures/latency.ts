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

export const QUERY = 'model context protocol servers';

/**
 * One call measured both ways: the tool through MCP, and exactly the request the tool sends
 * (method, route, headers, body) straight to the sandbox.
 */
interface Case {
  id: string;
  label: string;
  tool: string;
  arguments: Record<string, unknown>;
  streamed?: boolean;
  direct: { method: 'GET' | 'POST'; path: string; accept: string; body?: string };
}

export const LATENCY_CASES: readonly Case[] = [
  {
    id: 'chat_added_p{p}_json',
    label: 'chat added latency p{p}, stream: false',
    tool: 'chat',
    arguments: { model: MODEL, prompt: PROMPT, stream: false },
    direct: {
      method: 'POST',
      path: '/api/v1/chat/completions',
      accept: 'application/json',
      body: chatBody(false),
    },
  },
  {
    id: 'chat_added_p{p}_stream',
    label: 'chat added latency p{p}, stream: true (the default)',
    tool: 'chat',
    arguments: { model: MODEL, prompt: PROMPT, stream: true },
    streamed: true,
    direct: {
      method: 'POST',
      path: '/api/v1/chat/completions',
      accept: 'text/event-stream',
      body: chatBody(true),
    },
  },
  {
    id: 'web_search_added_p{p}',
    label: 'web_search added latency p{p}',
    tool: 'web_search',
    arguments: { query: QUERY },
    // What web_search sends for `{ query }`: the default output type, no filters.
    direct: {
      method: 'POST',
      path: '/api/web',
      accept: 'application/json',
      body: JSON.stringify({ query: QUERY, outputType: 'searchResults' }),
    },
  },
  {
    id: 'models_list_added_p{p}',
    label: 'models_list added latency p{p}',
    tool: 'models_list',
    arguments: {},
    direct: { method: 'GET', path: '/api/v1/models', accept: 'application/json' },
  },
];

/** The direct path: one keep-alive undici Agent, like orbit-mcp's, reading the whole reply. */
function directCaller(baseUrl: string, apiKey: string) {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  return {
    async call(direct: Case['direct']): Promise<void> {
      const res = await request(`${baseUrl}${direct.path}`, {
        method: direct.method,
        dispatcher: agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          accept: direct.accept,
          ...(direct.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: direct.body,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`direct ${direct.path}: HTTP ${res.statusCode} ${text}`);
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
 * What a call through MCP adds over the same request sent straight to the sandbox, for chat
 * (both modes), web_search and models_list: calls interleaved one by one (the order flips every
 * pair), after a warm-up that opens connections and lets the JIT settle. p50 and p99 of each
 * side, and their differences.
 */
export async function measureLatency(
  mcp: InProcess,
  baseUrl: string,
  apiKey: string,
  calls: number,
): Promise<Figure[]> {
  const direct = directCaller(baseUrl, apiKey);
  const figures: Figure[] = [];
  try {
    for (const one of LATENCY_CASES) {
      const viaMcp = () => mcp.call(one.tool, one.arguments, one.streamed ? () => {} : undefined);
      const straight = () => direct.call(one.direct);
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
      for (const p of [50, 99]) {
        const added = percentile(mcpMs, p) - percentile(directMs, p);
        figures.push({
          id: one.id.replace('{p}', String(p)),
          measure: `${one.label.replace('{p}', String(p))} (${calls} calls each)`,
          unit: 'ms',
          orbit: round(percentile(mcpMs, p), 3),
          baseline: round(percentile(directMs, p), 3),
          added: round(added, 3),
          ...(p === 50 ? { target: '≤ 0.3 ms added', pass: added <= 0.3 } : {}),
          details: {
            via: 'in-process MCP client and server (InMemoryTransport), bundled as dist is',
            direct: `${one.direct.method} ${one.direct.path}`,
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
