/**
 * The SDK's floor for the added-latency rows (bench/NOTES.md): the same request sent straight to
 * the sandbox, through a bare SDK server whose one tool sends it with undici and returns the reply
 * as text, and through orbit-mcp (bundled as dist is), interleaved one by one in one process.
 * `npm run bench` first (it bundles orbit-mcp), then `npx tsx bench/floor.ts [chat|web_search|models_list]`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/server';
import { Agent, request } from 'undici';
import { z } from 'zod';
import { startSandbox } from '../src/sandbox/index.js';
import { percentile } from './lib/stats.js';
import { MODEL, PROMPT, QUERY } from './measures/latency.js';

const CASES: Record<
  string,
  { args: Record<string, unknown>; method: 'GET' | 'POST'; path: string; body?: string }
> = {
  chat: {
    args: { model: MODEL, prompt: PROMPT, stream: false },
    method: 'POST',
    path: '/api/v1/chat/completions',
    body: JSON.stringify({ model: MODEL, stream: false, messages: [{ role: 'user', content: PROMPT }] }),
  },
  web_search: {
    args: { query: QUERY },
    method: 'POST',
    path: '/api/web',
    body: JSON.stringify({ query: QUERY, outputType: 'searchResults' }),
  },
  models_list: { args: {}, method: 'GET', path: '/api/v1/models' },
};

const tool = process.argv[2] ?? 'chat';
const one = CASES[tool];
if (!one) throw new Error(`usage: bench/floor.ts ${Object.keys(CASES).join('|')}`);
const sandbox = await startSandbox({ quiet: true });
const key = sandbox.state.createKey({ balance: 1_000_000, label: 'floor' });
const agents = [new Agent({ keepAliveTimeout: 30_000 }), new Agent({ keepAliveTimeout: 30_000 })];
const direct = async (agent = agents[0]!) => {
  const res = await request(`${sandbox.url}${one.path}`, {
    method: one.method,
    dispatcher: agent,
    headers: {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
      ...(one.body ? { 'content-type': 'application/json' } : {}),
    },
    body: one.body,
  });
  return res.body.text();
};
const bare = new McpServer({ name: 'floor', version: '1.0.0' });
bare.registerTool(
  tool,
  { description: 'The same request, its reply as text.', inputSchema: z.looseObject({}) },
  async () => ({
    content: [{ type: 'text', text: await direct(agents[1]) }],
  }),
);
const client = new Client({ name: 'floor', version: '1.0.0' });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await bare.connect(serverSide);
await client.connect(clientSide);
const { startInProcess } = (await import(
  pathToFileURL(resolve('bench/.tmp/in-process/in-process.js')).href
)) as typeof import('./lib/in-process.js');
const orbit = await startInProcess(sandbox.url, key);

const sides = {
  direct: () => direct(),
  'bare SDK': () => client.callTool({ name: tool, arguments: one.args }),
  'orbit-mcp': () => orbit.call(tool, one.args),
};
const ms: Record<string, number[]> = { direct: [], 'bare SDK': [], 'orbit-mcp': [] };
const names = Object.keys(sides) as (keyof typeof sides)[];
for (let i = 0; i < 1_100; i++) {
  // The order turns each round; the first 300 rounds warm up.
  for (let k = 0; k < names.length; k++) {
    const name = names[(i + k) % names.length]!;
    const start = performance.now();
    await sides[name]();
    if (i >= 300) ms[name]!.push(performance.now() - start);
  }
}
const p50 = (name: string) => percentile(ms[name]!, 50);
for (const name of names)
  console.log(
    `${tool} ${name}: p50 ${p50(name).toFixed(3)} ms, added ${(p50(name) - p50('direct')).toFixed(3)} ms`,
  );
await orbit.close();
await client.close();
for (const agent of agents) await agent.close();
await sandbox.close();
