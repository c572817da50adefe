/**
 * The audit log of the HTTP endpoint (issue 34, item 5): after a mixed run of two keys (paid, free,
 * failing and refused calls, and a flood refused before its body was read), the log holds one line
 * for every tool call, with its tenant, tool, outcome, money and request ids, and a line counting
 * the refused requests; and nothing secret: no key, no prompt, no file's content.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type RunningHttp, serveHttp } from '../../../src/mcp/http/endpoint/serve.js';
import { createRuntime, type Runtime } from '../../../src/runtime.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { registry } from '../../helpers/registry.js';

const PROMPT = 'audit-prompt-marker: the launch codes are in the blue folder';
const FILE_MARKER = 'audit-file-content-marker';
// A PNG signature, then bytes that must never be logged, as base64 or as text.
const FILE_BYTES = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(FILE_MARKER)]);
const IMAGE = `data:image/png;base64,${FILE_BYTES.toString('base64')}`;
const AUDIO = `data:audio/wav;base64,${Buffer.from(`RIFF0000WAVEfmt ${FILE_MARKER}`).toString('base64')}`;

let sandbox: Sandbox;
let runtime: Runtime;
let http: RunningHttp | undefined;
let folder: string;
let logPath: string;
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  folder = await mkdtemp(join(tmpdir(), 'orbit-audit-'));
  logPath = join(folder, 'audit.jsonl');
  runtime = await createRuntime(
    loadConfig(
      {
        baseUrl: sandbox.url,
        logLevel: 'error',
        maxSpendUsd: '0.6',
        rateLimit: 'key=1/m:40,address=off,paid=1/m:5',
        auditLog: logPath,
      },
      {},
    ),
  );
  http = await serveHttp(runtime, registry, { port: 0, host: '127.0.0.1', stateless: false });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await http?.close();
  await runtime?.close();
  await sandbox?.close();
  await rm(folder, { recursive: true, force: true });
});

async function connect(key: string) {
  const client = new Client({ name: 'audited', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(http!.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return async (name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;
}

const tenantOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);
const codeOf = (result: CallToolResult) =>
  result.isError ? /^Error \((\w+)/.exec((result.content[0] as { text: string }).text)?.[1] : undefined;

it('records every tool call of a mixed run of two keys, and no key, prompt or file content', async () => {
  const keyA = sandbox.state.createKey({ label: 'audit A', balance: 100, dailyRequestLimit: 1_000_000 });
  const keyB = sandbox.state.createKey({ label: 'audit B', balance: 100, dailyRequestLimit: 1_000_000 });
  const a = await connect(keyA);
  const b = await connect(keyB);

  // What each call should leave in the log: tool, outcome, error code, and whether it spent.
  const expected: { tenant: string; tool: string; outcome: string; code?: string; paid?: boolean }[] = [];
  const run = async (
    key: string,
    call: typeof a,
    tool: string,
    args: Record<string, unknown>,
    paid = false,
    meta?: Record<string, unknown>,
  ) => {
    const result = await call(tool, args, meta);
    const code = codeOf(result);
    const outcome = !code ? 'ok' : ['budget_exceeded', 'rate_exceeded'].includes(code) ? 'refused' : 'error';
    expected.push({ tenant: tenantOf(key), tool, outcome, code, paid: paid && outcome === 'ok' });
    return result;
  };

  await run(keyA, a, 'auth_status', {});
  await run(keyA, a, 'chat', { model: 'openai/gpt-sandbox', prompt: PROMPT }, true);
  await run(keyA, a, 'web_search', { query: PROMPT }, true);
  await run(keyA, a, 'image_edit', { prompt: PROMPT, images: [IMAGE] }, true);
  // Fails at the platform (a 503 on a paid POST), and fails our own check.
  sandbox.faults.add({ match: { path: '/api/v1/chat/completions' }, status: 503, times: 1 });
  expect((await run(keyA, a, 'chat', { model: 'openai/gpt-sandbox', prompt: PROMPT })).isError).toBe(true);
  expect((await run(keyA, a, 'models_get', { id: 'nope/none' })).isError).toBe(true);
  // Refused by the spend budget (a transcription reserves 1 USD of the 0.6), then by the paid-call rate.
  expect(codeOf(await run(keyA, a, 'transcribe', { file: AUDIO }))).toBe('budget_exceeded');
  expect(codeOf(await run(keyA, a, 'web_search', { query: PROMPT }))).toBe('rate_exceeded');
  // Refused before it ran: an x402 payment that is not one (the tool is never loaded).
  const junkPayment = { 'x402/payment': { x402Version: 'not a payment' } };
  expect(codeOf(await run(keyA, a, 'web_search', { query: PROMPT }, false, junkPayment))).toBeDefined();
  await run(keyB, b, 'auth_status', {});
  await run(keyB, b, 'web_search', { query: 'another tenant' }, true);
  // A name the server does not have: recorded without the name a client made up.
  await expect(a('no_such_tool_of_an_attacker')).rejects.toThrow();
  expected.push({ tenant: tenantOf(keyA), tool: 'unknown', outcome: 'error', code: 'unknown_tool' });

  // A flood of key A: what its 40 tokens still allow is served, the rest refused before the body is read.
  const flood = await Promise.allSettled(Array.from({ length: 40 }, () => a('auth_status')));
  const refused = flood.filter((outcome) => outcome.status === 'rejected').length;
  expect(refused).toBeGreaterThan(0);
  for (const outcome of flood)
    if (outcome.status === 'fulfilled')
      expected.push({ tenant: tenantOf(keyA), tool: 'auth_status', outcome: 'ok' });

  await Promise.all(clients.splice(0).map((client) => client.close()));
  await http!.close();
  http = undefined;
  const text = await readFile(logPath, 'utf8');
  expect((await stat(logPath)).mode & 0o777).toBe(0o600);
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

  const calls = lines.filter((line) => line.event === 'tool_call');
  expect(calls).toHaveLength(expected.length);
  const platformIds = new Set(sandbox.requests.map((request) => request.id));
  for (const want of expected) {
    const index = calls.findIndex(
      (line) =>
        line.tenant === want.tenant &&
        line.tool === want.tool &&
        line.outcome === want.outcome &&
        line.error_code === want.code,
    );
    expect(index, JSON.stringify(want)).toBeGreaterThanOrEqual(0);
    const [line] = calls.splice(index, 1) as [Record<string, unknown>];
    expect(line).toMatchObject({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      replica: runtime.replicaId,
      duration_ms: expect.any(Number),
      request_ids: expect.any(Array),
    });
    for (const id of line.request_ids as string[]) expect(platformIds.has(id)).toBe(true);
    if (want.paid) {
      // What it cost, what was held for it before it was sent, and what the budget counted.
      expect(line.cost_usd).toBeGreaterThan(0);
      expect(line.reserved_usd).toBeGreaterThanOrEqual(line.cost_usd as number);
      expect(line.settled_usd).toBe(line.cost_usd);
      expect((line.request_ids as string[]).length).toBeGreaterThan(0);
    }
  }
  expect(calls).toEqual([]);

  // The flood's refusals, counted in a line a second (one, unless the flood straddled a second) for key A.
  const limited = lines.filter((line) => line.event === 'rate_limited');
  expect(limited.length).toBeGreaterThan(0);
  for (const line of limited) {
    expect(line).toEqual({
      time: expect.any(String),
      event: 'rate_limited',
      replica: runtime.replicaId,
      scope: 'key',
      tenant: tenantOf(keyA),
      refused: expect.any(Number),
      retry_after_ms: expect.any(Number),
    });
  }
  expect(limited.reduce((sum, line) => sum + (line.refused as number), 0)).toBe(refused);

  for (const secret of [
    keyA,
    keyB,
    PROMPT,
    'launch codes',
    FILE_MARKER,
    FILE_BYTES.toString('base64'),
    AUDIO,
  ])
    expect(text).not.toContain(secret);
});
