import { performance } from 'node:perf_hooks';
import type { Figure } from '../lib/figure.js';
import type { InProcess } from '../lib/in-process.js';
import { median, percentile, round } from '../lib/stats.js';
import { upstreamCaller } from '../lib/upstream-request.js';

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

const QUERY = 'model context protocol servers';

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

const LATENCY_CASES: readonly Case[] = [
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

/** The direct path: the request straight to the sandbox, its whole reply read. */
function directCaller(baseUrl: string, apiKey: string) {
  const upstream = upstreamCaller(baseUrl, apiKey);
  return {
    async call(direct: Case['direct']): Promise<void> {
      const { status, text } = await upstream.send(direct);
      if (status !== 200) throw new Error(`direct ${direct.path}: HTTP ${status} ${text}`);
    },
    close: () => upstream.close(),
  };
}

/** Enough calls for the JIT to settle on every path: a server lives long, the first calls are not its steady state. */
const WARM_UP_CALLS = 200;

/** The issue 36 target: what orbit-mcp may add to a call beyond the bare SDK server's same request. */
const TARGET_MS = 0.2;
const TARGETED = new Set(['chat_added_p{p}_json', 'chat_added_p{p}_stream', 'web_search_added_p{p}']);

/** The bare SDK server's tool for a case: one per case, since both chat cases are `chat`. */
const bareTool = (one: Case) => one.id.replace('_p{p}', '');

/** The requests the bare SDK server's tools send (startBareInProcess). */
export const BARE_TOOLS = Object.fromEntries(LATENCY_CASES.map((one) => [bareTool(one), one.direct]));

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/**
 * What a call through orbit-mcp adds over a bare SDK server whose tool sends the same request,
 * for chat (both modes), web_search and models_list, both in this process behind the SDK's
 * in-memory transport (as a stdio client's calls reach them, without a pipe's noise); the same
 * request sent straight to the sandbox is measured beside them for context. Calls interleaved one
 * by one (the order turns each round), after a warm-up that opens connections and lets the JIT
 * settle. p50 and p99 of each side, and orbit-mcp's difference from the bare server.
 */
export async function measureLatency(
  mcp: InProcess,
  bare: InProcess,
  baseUrl: string,
  apiKey: string,
  calls: number,
): Promise<Figure[]> {
  const direct = directCaller(baseUrl, apiKey);
  const figures: Figure[] = [];
  try {
    for (const one of LATENCY_CASES) {
      const progress = one.streamed ? () => {} : undefined;
      const sides = {
        orbit: () => mcp.call(one.tool, one.arguments, progress),
        bare: () => bare.call(bareTool(one), {}),
        direct: () => direct.call(one.direct),
      };
      const names = Object.keys(sides) as (keyof typeof sides)[];
      const ms: Record<keyof typeof sides, number[]> = { orbit: [], bare: [], direct: [] };
      for (let i = 0; i < WARM_UP_CALLS + calls; i++) {
        for (let k = 0; k < names.length; k++) {
          const name = names[(i + k) % names.length]!;
          const took = await timed(sides[name]);
          if (i >= WARM_UP_CALLS) ms[name].push(took);
        }
      }
      for (const p of [50, 99]) {
        const at = (name: keyof typeof sides) => percentile(ms[name], p);
        const added = at('orbit') - at('bare');
        const targeted = p === 50 && TARGETED.has(one.id);
        figures.push({
          id: one.id.replace('{p}', String(p)),
          measure: `${one.label.replace('{p}', String(p))}, beyond the bare SDK server's same request (${calls} calls each)`,
          unit: 'ms',
          orbit: round(at('orbit'), 3),
          baseline: round(at('bare'), 3),
          added: round(added, 3),
          ...(targeted ? { target: `≤ ${TARGET_MS} ms added`, pass: added <= TARGET_MS } : {}),
          details: {
            via: 'in-process SDK client and server (InMemoryTransport), both bundled as dist is',
            request: `${one.direct.method} ${one.direct.path}`,
            directMs: round(at('direct'), 3),
            orbitOverDirectMs: round(at('orbit') - at('direct'), 3),
            bareOverDirectMs: round(at('bare') - at('direct'), 3),
            // Each orbit-mcp call against the bare call of its round: robust to slow drift in load.
            medianPairedAddedMs: round(median(ms.orbit.map((took, j) => took - ms.bare[j]!)), 3),
          },
        });
      }
    }
  } finally {
    await direct.close();
  }
  return figures;
}
