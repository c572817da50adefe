import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpServer, stopProcess } from '../../scripts/lib/http-server.js';
import { childEnv, UNREACHED_RATE_LIMIT } from '../lib/child.js';
import type { Figure } from '../lib/figure.js';
import { round } from '../lib/stats.js';

/** CPU seconds (user and system) a process has used so far, from the kernel's view (Linux). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The mix a busy remote endpoint sees: streamed chat, search, media, catalogs, resources, refusals. */
const MIX: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'chat', arguments: { model: 'openai/gpt-sandbox', prompt: 'Summarise the soak test.' } },
  { name: 'web_search', arguments: { query: 'orbital mechanics' } },
  { name: 'models_list', arguments: { kind: 'text' } },
  { name: 'tokens_count', arguments: { model: 'openai/gpt-sandbox', prompt: 'How many tokens?' } },
  { name: 'image_generate', arguments: { model: 'pixel-lite', prompt: 'a fox', resolution: '512x512' } },
  { name: 'speech_generate', arguments: { text: 'Soak.', model: 'tts-mini', format: 'wav' } },
  { name: 'transcribe', arguments: { file: '/etc/passwd' } },
  { name: 'auth_status', arguments: {} },
];

/** Calls per session in the HTTP soak: 5,000 calls churn through about 500 sessions. */
const CALLS_PER_SESSION = 10;

/**
 * A soak of the remote endpoint: `calls` mixed calls from `tenants` keys, each opening a new
 * session every CALLS_PER_SESSION calls (session churn), and the server's RSS before, at each
 * checkpoint and after. The baseline is a bare one-tool SDK server given the same number of
 * calls and sessions, so the growth can be read against what the SDK costs.
 */
export async function measureSoak(
  orbit: { args: string[]; keys: string[] },
  baseline: { args: string[] },
  checkpoints: readonly number[],
): Promise<Figure> {
  const calls = Math.max(...checkpoints);
  const run = async (args: string[], clientsFor: string[], pick: (n: number) => (typeof MIX)[number]) => {
    const { url, child } = await startHttpServer(args, {
      env: childEnv({ ORBIT_LOG_LEVEL: 'error', ORBIT_RATE_LIMIT: UNREACHED_RATE_LIMIT }),
    });
    try {
      const connect = async (key: string) => {
        const client = new Client({ name: 'orbit-soak', version: '1.0.0' });
        const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
        const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
        await client.connect(transport);
        return { client, transport };
      };
      /** Ends a session as a well-behaved client does: DELETE, then close. */
      const leave = async ({ client, transport }: Awaited<ReturnType<typeof connect>>) => {
        await transport.terminateSession().catch(() => {});
        await client.close();
      };
      const rss = [await rssMiB(child.pid!)];
      let n = 0;
      let sessions = 0;
      let failed = 0;
      const pending = [...checkpoints].sort((a, b) => a - b);
      const worker = async (key: string) => {
        while (n < calls) {
          // Session churn: each session makes a few calls and leaves, as short-lived agents do.
          const session = await connect(key);
          sessions++;
          for (let made = 0; made < CALLS_PER_SESSION && n < calls; made++) {
            const call = pick(n++);
            const result = await session.client.callTool(call);
            // The refused path is part of the mix on purpose; anything else failing is a fault.
            if (result.isError && call.name !== 'transcribe') failed++;
            while (pending.length && n >= pending[0]!) {
              pending.shift();
              rss.push(await rssMiB(child.pid!));
            }
          }
          await leave(session);
        }
      };
      await Promise.all(clientsFor.map(worker));
      if (failed > 0) throw new Error(`${failed} soak calls failed`);
      return { rss, sessions };
    } finally {
      await stopProcess(child);
    }
  };
  const orbitRun = await run(orbit.args, orbit.keys, (n) => MIX[n % MIX.length]!);
  const orbitRss = orbitRun.rss;
  const baseRun = await run(
    baseline.args,
    orbit.keys.map(() => ''),
    () => ({ name: 'echo', arguments: { text: 'hi' } }),
  );
  const baseRss = baseRun.rss;
  const growth = (rss: number[]) => rss.at(-1)! - rss[0]!;
  return {
    id: 'soak_rss',
    measure: `RSS growth over ${calls} mixed calls, ${orbit.keys.length} tenants over HTTP, ${orbitRun.sessions} sessions (vs the bare SDK server, same count of echo calls)`,
    unit: 'MiB',
    orbit: round(growth(orbitRss), 1),
    baseline: round(growth(baseRss), 1),
    added: round(growth(orbitRss) - growth(baseRss), 1),
    target: '≤ 1.2x the bare server',
    pass: growth(orbitRss) <= 1.2 * growth(baseRss),
    details: {
      ratio: round(growth(orbitRss) / Math.max(growth(baseRss), 1), 2),
      sessions: { orbit: orbitRun.sessions, baseline: baseRun.sessions, callsEach: CALLS_PER_SESSION },
      checkpoints: [0, ...checkpoints],
      orbitRssMiB: orbitRss.map((x) => round(x, 1)),
      baselineRssMiB: baseRss.map((x) => round(x, 1)),
      mix: MIX.map((call) => call.name),
      note: 'RSS at start and after each checkpoint of calls; every call but the refused transcribe must succeed',
    },
  };
}

/** A soak call; `invalid` ones must be refused (an isError result or a JSON-RPC error). */
type SoakCall = (typeof MIX)[number] & { invalid?: true };

/**
 * Over stdio the server is the person's own: files are theirs to read, so the refused call is a
 * misspelt argument instead of a server file.
 */
const STDIO_MIX: SoakCall[] = [
  ...MIX.filter((call) => call.name !== 'transcribe'),
  { name: 'chat', arguments: { model: 'openai/gpt-sandbox', prompt: 'Soak.', temprature: 0 }, invalid: true },
];

/**
 * What an agent gets wrong, four calls in ten: a misspelt argument, a value of the wrong type, a
 * value outside an enum, a tool that does not exist (a JSON-RPC error, not a result).
 */
const INVALID_MIX: SoakCall[] = [
  { name: 'chat', arguments: { model: 'openai/gpt-sandbox', prompt: 'Soak.', stream: false } },
  { name: 'chat', arguments: { model: 'openai/gpt-sandbox', prompt: 'Soak.', temprature: 0 }, invalid: true },
  { name: 'web_search', arguments: { query: 'orbital mechanics' } },
  { name: 'web_search', arguments: { query: 42 }, invalid: true },
  { name: 'chat', arguments: { model: 'openai/gpt-sandbox', prompt: 'Summarise the soak test.' } },
  { name: 'models_list', arguments: { kind: 'hologram' }, invalid: true },
  { name: 'models_list', arguments: { kind: 'text' } },
  { name: 'chat_completion', arguments: { prompt: 'Soak.' }, invalid: true },
  { name: 'tokens_count', arguments: { model: 'openai/gpt-sandbox', prompt: 'How many tokens?' } },
  { name: 'auth_status', arguments: {} },
];

/** The stdio soaks: the mixed calls of a desktop assistant, and the same with 40% invalid calls. */
export const STDIO_SOAKS = {
  mixed: {
    id: 'soak_rss_stdio',
    mix: STDIO_MIX,
    label: 'mixed calls over stdio',
    invalidBaseline: false,
  },
  invalid: {
    id: 'soak_rss_stdio_invalid',
    mix: INVALID_MIX,
    label: 'calls over stdio, 40% of them invalid',
    // The bare server gets as many invalid calls (echo without its text) in the same places.
    invalidBaseline: true,
  },
} as const;

const ECHO: SoakCall = { name: 'echo', arguments: { text: 'hi' } };
const BAD_ECHO: SoakCall = { name: 'echo', arguments: { txt: 'hi' }, invalid: true };

/**
 * The same soak over stdio: one client, `calls` calls of the mix one after another, the server's
 * RSS before, at each checkpoint and after. The baseline is the bare one-tool SDK stdio server,
 * given echo calls, as many of them invalid as of the mix.
 */
export async function measureStdioSoak(
  soak: (typeof STDIO_SOAKS)[keyof typeof STDIO_SOAKS],
  orbit: { args: string[]; env: Record<string, string> },
  baseline: { args: string[] },
  checkpoints: readonly number[],
): Promise<Figure> {
  const calls = Math.max(...checkpoints);
  const run = async (args: string[], env: Record<string, string>, pick: (n: number) => SoakCall) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: childEnv({ ORBIT_LOG_LEVEL: 'error', ...env }) as Record<string, string>,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'orbit-soak', version: '1.0.0' });
    await client.connect(transport);
    try {
      const pid = transport.pid!;
      const rss = [await rssMiB(pid)];
      const pending = [...checkpoints].sort((a, b) => a - b);
      let failed = 0;
      for (let n = 0; n < calls; ) {
        const call = pick(n++);
        const refused = await client.callTool(call).then(
          (result) => Boolean(result.isError),
          () => true,
        );
        if (refused !== Boolean(call.invalid)) failed++;
        while (pending.length && n >= pending[0]!) {
          pending.shift();
          rss.push(await rssMiB(pid));
        }
      }
      if (failed > 0) throw new Error(`${failed} stdio soak calls did not answer as expected`);
      return { rss, cpu: await cpuSeconds(pid) };
    } finally {
      await client.close();
    }
  };
  const { mix } = soak;
  const orbitRun = await run(orbit.args, orbit.env, (n) => mix[n % mix.length]!);
  const baseRun = await run(baseline.args, {}, (n) =>
    soak.invalidBaseline && mix[n % mix.length]!.invalid ? BAD_ECHO : ECHO,
  );
  const [orbitRss, baseRss] = [orbitRun.rss, baseRun.rss];
  const growth = (rss: number[]) => rss.at(-1)! - rss[0]!;
  const ratio = growth(orbitRss) / Math.max(growth(baseRss), 1);
  return {
    id: soak.id,
    measure: `RSS growth over ${calls} ${soak.label} (vs the bare SDK stdio server, same count of echo calls${soak.invalidBaseline ? ', as many invalid' : ''})`,
    unit: 'MiB',
    orbit: round(growth(orbitRss), 1),
    baseline: round(growth(baseRss), 1),
    added: round(growth(orbitRss) - growth(baseRss), 1),
    target: '≤ 1.2x the bare server',
    pass: ratio <= 1.2,
    details: {
      ratio: round(ratio, 2),
      checkpoints: [0, ...checkpoints],
      orbitRssMiB: orbitRss.map((x) => round(x, 1)),
      baselineRssMiB: baseRss.map((x) => round(x, 1)),
      // The server's CPU over its whole run (start included): what a tighter heap would cost.
      cpuSeconds: { orbit: orbitRun.cpu, baseline: baseRun.cpu },
      mix: mix.map((call) => `${call.name}${call.invalid ? ' (invalid)' : ''}`),
      note: 'RSS at start and after each checkpoint of calls; every valid call must succeed and every invalid one be refused',
    },
  };
}
