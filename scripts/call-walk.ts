/**
 * Which project files run during one warm `chat` call on a 2025 HTTP session, and how many of their
 * functions are called: V8 precise coverage taken around the call (taking it resets the counters).
 * The in-process sandbox is left out. `npx tsx scripts/call-walk.ts [root] [serve module]`: run on
 * another checkout (its node_modules linked) to compare layouts, as docs/architecture.md does.
 */
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const root = resolve(process.argv[2] ?? '.');
const serveModule = process.argv[3] ?? 'src/mcp/http/endpoint/serve.ts';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const load = (path: string) => import(pathToFileURL(`${root}/${path}`).href);
const { loadConfig } = await load('src/config.ts');
const { createRuntime } = await load('src/runtime.ts');
const { serveHttp } = await load(serveModule);
const { registry } = await load('test/helpers/registry.ts');

const runtime = await createRuntime(loadConfig({ logLevel: 'error' }, {}), { sandbox: true });
const http = await serveHttp(runtime, registry, { port: 0, host: '127.0.0.1', stateless: false });
const client = new Client({ name: 'call-walk', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
const CHAT = { name: 'chat', arguments: { model: 'openai/gpt-sandbox', prompt: 'hello' } };
await client.callTool(CHAT);

const calls = async () => {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const counts = new Map<string, number>();
  for (const script of result) {
    const at = script.url.indexOf(root);
    if (at < 0 || script.url.includes('node_modules')) continue;
    const file = script.url.slice(at + root.length + 1);
    if (file.startsWith('src/sandbox/') || file.startsWith('scripts/')) continue;
    const called = script.functions.reduce((n, f) => n + (f.ranges[0]?.count ?? 0), 0);
    counts.set(file, (counts.get(file) ?? 0) + called);
  }
  return counts;
};
await calls();
await client.callTool(CHAT);
const ran = [...(await calls())].filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b));
for (const [file, n] of ran) console.log(`${file}  ${n}`);
console.log(`${ran.length} files`);
await client.close();
await http.close();
await runtime.close();
process.exit(0);
