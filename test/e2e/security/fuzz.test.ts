/**
 * Fuzzing every tool's input through the built server over stdio: arguments shaped like each
 * tool's schema but filled with hostile values (paths out of every root, broken data URLs, huge
 * numbers, wrong types, nested junk), plus lines that are not JSON-RPC at all. Whatever comes in,
 * the process stays up and answers every request. A fixed seed and a bounded count here;
 * `FUZZ_RUNS=10000 npx vitest run test/e2e/security/fuzz.test.ts` for a long run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, INITIALIZE, StdioChild } from '../../../bench/lib/child.js';
import catalog from '../../../tools/catalog.json' with { type: 'json' };

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Values an attacker or a confused model sends. */
const nasty = fc.oneof(
  fc.constantFrom(
    '/etc/passwd',
    '../../../../etc/shadow',
    '/proc/self/environ',
    '~',
    '~/.ssh/id_rsa',
    '.env',
    'file:///etc/hosts',
    'data:image/png;base64,',
    'data:;base64,@@@@',
    'data:image/png;base64,iVBORw0KGgo=',
    'orbit://media/00000000000000000000000000000000',
    'orbit://media/../../etc/passwd',
    'https://169.254.169.254/latest/meta-data/',
    'http://localhost:22/',
    '\u0000',
    '',
    ' ',
    'sk-orbit-sandbox-demo',
    'openai/gpt-sandbox',
    'tts-mini',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.integer(),
  fc.constantFrom(0, -1, 1, 1e308, -1e308, 2 ** 53, 0.5),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
);

const tools: { name: string; keys: string[] }[] = catalog.map((entry) => ({
  name: entry.name,
  keys: Object.keys((entry.listing.inputSchema as { properties?: object }).properties ?? {}),
}));

/** One call: a tool (or a made-up name), its own argument names with hostile values, and some strays. */
const call = fc
  .record({
    tool: fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(...tools) },
      fc.constant({ name: 'no_such_tool', keys: [] as string[] }),
    ),
    values: fc.array(nasty, { minLength: 12, maxLength: 12 }),
    picks: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    stray: fc.dictionary(fc.string({ maxLength: 8 }), nasty, { maxKeys: 2 }),
    wrapped: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true)),
  })
  .map(({ tool, values, picks, stray, wrapped }) => {
    const args: Record<string, unknown> = { ...stray };
    tool.keys.forEach((key, i) => {
      if (picks[i % picks.length]) args[key] = values[i % values.length];
    });
    // Waits are bounded by the tools anyway; keep the run quick.
    if (tool.keys.includes('max_wait_s')) args.max_wait_s = 0;
    if (tool.keys.includes('wait')) args.wait = false;
    return { name: tool.name, arguments: wrapped ? [args] : args };
  });

let child: StdioChild;
let outputDir: string;
let nextId = 100;

beforeAll(async () => {
  outputDir = await mkdtemp(join(tmpdir(), 'orbit-fuzz-'));
  child = new StdioChild(
    process.execPath,
    [BIN, '--sandbox', '--toolsets', 'all', '--output-dir', outputDir],
    childEnv({ ORBIT_LOG_LEVEL: 'silent' }),
  );
  child.send(INITIALIZE);
  await child.reply(1);
  child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
});
afterAll(async () => {
  await child?.stop();
  await rm(outputDir, { recursive: true, force: true });
});

describe('fuzzing every tool over stdio', () => {
  it(`answers ${RUNS} hostile calls and never exits`, async () => {
    await fc.assert(
      fc.asyncProperty(call, async (params) => {
        const id = nextId++;
        child.send({ jsonrpc: '2.0', id, method: 'tools/call', params });
        const { message } = await child.reply(id, 60_000);
        expect('result' in message || 'error' in message).toBe(true);
      }),
      { seed: 20261123, numRuns: RUNS },
    );
    expect(child.process.exitCode).toBeNull();
  });

  it('answers lines that are not JSON-RPC, and a message over the limit, and carries on', async () => {
    child.process.stdin!.write('not json at all\n{"jsonrpc":"2.0"\n[]\n{}\n');
    child.process.stdin!.write(
      `{"jsonrpc":"2.0","id":90,"method":"tools/call","params":{"pad":"${'x'.repeat(65 * 1_048_576)}"}}\n`,
    );
    const refused = await child.reply(90, 30_000);
    expect(refused.message).toMatchObject({ error: { code: -32600 } });
    child.send({ jsonrpc: '2.0', id: 91, method: 'ping' });
    expect((await child.reply(91)).message).toMatchObject({ result: {} });
    expect(child.process.exitCode).toBeNull();
  });
});
