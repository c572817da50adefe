/**
 * One load process of the throughput benchmark: opens `sessions` connections to an MCP endpoint
 * in one protocol era, then calls one tool in a loop until the window closes, and prints how many
 * calls completed inside the window as JSON on stdout. The SDK client makes the first call of each
 * connection (so the exchange is exactly what a real client sends); the loop then replays that
 * request with undici on a keep-alive pool, so the client side costs little CPU.
 *
 * argv: url era(legacy|modern) sessions tool argsJson startAt warmupMs windowMs [authKey] [loops]
 * `startAt`: when the loops begin (epoch ms), or `stdin`: print `ready` once connected, then read
 * it from stdin (bench/measures/throughput.ts opens the window once every worker is ready).
 * `loops` calls of each connection run at once (default 1), each on its own HTTP connection: a
 * flood of few sessions and many calls in flight (bench/measures/flood.ts).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent, request } from 'undici';

const [url, era, sessionsArg, tool, argsJson, startArg, warmupArg, windowArg, key, loopsArg] =
  process.argv.slice(2);
if (!url || (era !== 'legacy' && era !== 'modern'))
  throw new Error('usage: url era sessions tool args start warmup window [key]');
const sessions = Number(sessionsArg);
const loops = Number(loopsArg ?? 1);
let from = 0;
let until = 0;
const agent = new Agent({ connections: sessions * loops, keepAliveTimeout: 30_000 });
const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};

interface Recorded {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const clients: Client[] = [];

/** Connects with the SDK client and records the tools/call request it sends. */
async function recordCall(): Promise<Recorded> {
  let recorded: Recorded | undefined;
  const capture: typeof fetch = async (input, init) => {
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    if (body?.method === 'tools/call') {
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, name) => {
        headers[name] = value;
      });
      recorded = { headers, body };
    }
    return fetch(input, init);
  };
  const transport = new StreamableHTTPClientTransport(new URL(url!), {
    fetch: capture,
    requestInit: { headers: auth },
  });
  const client = new Client(
    { name: 'orbit-load', version: '1' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  clients.push(client);
  await client.callTool({ name: tool!, arguments: JSON.parse(argsJson ?? '{}') });
  if (!recorded) throw new Error('no tools/call request was seen');
  return recorded;
}

/** Says `ready` and reads the start time the bench sends once every worker is. */
async function startFromStdin(): Promise<number> {
  process.stdout.write('ready\n');
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const at = Number(text.trim());
  if (!Number.isFinite(at)) throw new Error(`no start time on stdin: ${JSON.stringify(text)}`);
  return at;
}

let counted = 0;
let failed = 0;
let nextId = 1_000;

async function loop(call: Recorded): Promise<void> {
  while (Date.now() < until) {
    const res = await request(url!, {
      method: 'POST',
      dispatcher: agent,
      headers: call.headers,
      body: JSON.stringify({ ...call.body, id: nextId++ }),
    });
    const text = await res.body.text();
    const done = Date.now();
    if (res.statusCode !== 200 || !text.includes('"result"') || text.includes('"isError":true')) failed++;
    else if (done >= from && done < until) counted++;
  }
}

const calls = await Promise.all(Array.from({ length: sessions }, recordCall));
const startAt = startArg === 'stdin' ? await startFromStdin() : Number(startArg);
from = startAt + Number(warmupArg);
until = from + Number(windowArg);
// Every worker starts its loop at the same moment, so the warm-up and window line up.
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
await Promise.all(calls.flatMap((call) => Array.from({ length: loops }, () => loop(call))));
process.stdout.write(`${JSON.stringify({ counted, failed })}\n`);
// A 2025 client keeps a listening stream open; closing the clients ends the process.
await Promise.all(clients.map((client) => client.close()));
await agent.close();
process.exit(0);
