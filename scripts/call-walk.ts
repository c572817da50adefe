/**
 * Which project files run during one warm `chat` call on a 2025 HTTP session, and how many of their
 * functions are called: V8 precise coverage taken around the call (taking it resets the counters).
 * The in-process sandbox is left out. Then the hops: the distinct calls from one project file into
 * another, read from the call tree of a CPU profile sampled every 10 µs over 300 more calls (a hop
 * too brief to be sampled is missed, alike in both layouts).
 * `npx tsx scripts/call-walk.ts [root] [serve module]`: run on another checkout (its node_modules
 * linked) to compare layouts, as docs/architecture.md does.
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

/** The project file of a profile frame, or undefined (node internals, dependencies, the sandbox). */
const projectFile = (url: string): string | undefined => {
  const at = url.indexOf(root);
  if (at < 0 || url.includes('node_modules')) return undefined;
  const file = url.slice(at + root.length + 1);
  return file.startsWith('src/sandbox/') || file.startsWith('scripts/') || file.startsWith('test/')
    ? undefined
    : file;
};
await session.post('Profiler.setSamplingInterval', { interval: 10 });
await session.post('Profiler.start');
for (let i = 0; i < 300; i++) await client.callTool(CHAT);
const { profile } = await session.post('Profiler.stop');
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const hops = new Set<string>();
/** Walks the tree carrying the nearest project file above: each change of file is a hop. */
const walk = (id: number, above: string | undefined) => {
  const node = byId.get(id)!;
  const file = projectFile(node.callFrame.url) ?? above;
  if (above && file && file !== above) hops.add(`${above} -> ${file}`);
  for (const child of node.children ?? []) walk(child, file);
};
walk(profile.nodes[0]!.id, undefined);
const into = new Map<string, number>();
for (const hop of hops) {
  const to = hop.split(' -> ')[1]!;
  into.set(to, (into.get(to) ?? 0) + 1);
}
console.log(`${hops.size} hops (distinct calls from one project file into another)`);
if (process.env.CALL_WALK_HOPS) for (const hop of [...hops].sort()) console.log(`  ${hop}`);
await client.close();
await http.close();
await runtime.close();
process.exit(0);
