/**
 * Runs @modelcontextprotocol/conformance (every server scenario of an era, pending ones too)
 * against the built server over Streamable HTTP on the sandbox, then holds the results to that
 * era's expected-failures file: any other failure fails, an expected failure that passes fails
 * (the list must shrink when the server grows), and an expected failure that fails for a reason
 * other than the one written down fails too.
 *
 * Two eras, two suites:
 * - 2025: the 2025-03-26 to 2025-11-25 scenarios of 0.1.13 (a devDependency), on this Node.
 * - 2026-07-28: the scenarios of the 0.2.0 prereleases, which need Node 22 (they import
 *   `fs.globSync`). Both the suite and a Node 22 binary (the registry's `node-<os>-<cpu>`
 *   package, a plain binary with no install script) are fetched with npx for this run only, so
 *   the package's own install stays on Node 20 and free of engine warnings.
 *
 * Usage: npm run build && tsx scripts/ci-conformance.ts [--era 2025|2026-07-28]  (no --era: both)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startHttpServer, stopProcess } from './lib/http-server.js';

const BIN = 'dist/orbit-mcp.js';
const SUITE_TIMEOUT_MS = 10 * 60_000;

/** Pinned: a new prerelease may add scenarios, and is taken on purpose, with its expected failures. */
const SUITE_2026 = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const NODE_22 = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}@22.23.3`;
/**
 * npx installs with npm on this Node (20), so packages that declare node >= 22 would print
 * EBADENGINE warnings that do not apply: they run on the Node 22 binary, first on npx's PATH.
 */
const NPX_2026 = ['--yes', '--loglevel=error', '--package', NODE_22, '--package', SUITE_2026, '--'];

interface Command {
  file: string;
  args: string[];
}

interface Era {
  /** What the run is called in its verdict. */
  title: string;
  expected: string;
  /** Fails early, with a plain message, when the suite cannot run here. */
  prepare?(): Promise<void>;
  suite(url: string, outputDir: string): Command;
}

const ERAS: Record<string, Era> = {
  '2025': {
    title: '2025 revisions (@modelcontextprotocol/conformance 0.1.13, suite all)',
    expected: 'test/conformance/expected-failures.json',
    suite: (url, outputDir) => ({
      file: process.execPath,
      args: [localConformanceBin(), 'server', '--url', url, '--suite', 'all', '-o', outputDir],
    }),
  },
  '2026-07-28': {
    title: `2026-07-28 (${SUITE_2026}, suite all, on Node 22 from ${NODE_22})`,
    expected: 'test/conformance/expected-failures-2026-07-28.json',
    async prepare() {
      const { code, stdout } = await run({ file: 'npx', args: [...NPX_2026, 'node', '--version'] });
      if (code !== 0 || !stdout.startsWith('v22.'))
        throw new Error(
          `could not run Node 22 from the npm registry (npx ${NODE_22}: exit ${code}, "${stdout.trim()}")`,
        );
      say(`Node ${stdout.trim()} from ${NODE_22}`);
    },
    suite: (url, outputDir) => ({
      file: 'npx',
      args: [
        ...NPX_2026,
        'conformance',
        'server',
        '--url',
        url,
        '--suite',
        'all',
        '--spec-version',
        '2026-07-28',
        '-o',
        outputDir,
      ],
    }),
  },
};

const Expected = z.object({
  expectedFailures: z.array(
    z.object({ scenario: z.string(), reason: z.string(), errors: z.array(z.string()).min(1) }),
  ),
});
const Checks = z.array(
  z.looseObject({ id: z.string(), status: z.string(), errorMessage: z.string().optional() }),
);
type Check = z.infer<typeof Checks>[number];

const say = (line = '') => process.stdout.write(`${line}\n`);

function localConformanceBin(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@modelcontextprotocol/conformance/package.json');
  return join(dirname(manifest), 'dist', 'index.js');
}

/** Runs a short command to completion and returns what it printed on stdout. */
function run(command: Command): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(command.file, command.args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout }));
  });
}

/** Runs the whole suite; its own exit code is only reported, the saved checks are what is judged. */
async function runSuite(command: Command): Promise<void> {
  const suite = spawn(command.file, command.args, { stdio: ['ignore', 'pipe', 'inherit'] });
  // The suite's per-scenario lines ("0 passed, 1 failed") include the expected failures; CI reads
  // such lines as test counts, so they are reworded. Our own verdict is printed after the run.
  suite.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    process.stdout.write(chunk.replace(/(\d+) passed, (\d+) failed/g, '$1 ok, $2 not ok'));
  });
  const timer = setTimeout(() => suite.kill('SIGKILL'), SUITE_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    suite.once('error', reject);
    suite.once('close', resolve);
  });
  clearTimeout(timer);
  say(`(the suite exited with ${code})`);
}

/** Results are saved as `server-<scenario>-<ISO time>/checks.json`, one folder per scenario. */
async function readResults(outputDir: string): Promise<Map<string, Check[]>> {
  const results = new Map<string, Check[]>();
  for (const entry of await readdir(outputDir)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    if (!scenario) continue;
    const checks = Checks.parse(JSON.parse(await readFile(join(outputDir, entry, 'checks.json'), 'utf8')));
    results.set(scenario, checks);
  }
  return results;
}

/** The suite's own rule: a scenario fails on any FAILURE or WARNING check. */
const failing = (checks: Check[]) => checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
const describeCheck = (c: Check) => `${c.status} ${c.id}: ${c.errorMessage ?? '(no message)'}`;

/** Runs one era against a fresh server; true when every result is as expected. */
async function runEra(name: string, era: Era): Promise<boolean> {
  say(`\n== conformance ${name}: ${era.title}`);
  const expected = new Map(
    Expected.parse(JSON.parse(await readFile(era.expected, 'utf8'))).expectedFailures.map((e) => [
      e.scenario,
      e,
    ]),
  );
  try {
    await era.prepare?.();
  } catch (error) {
    say(`PROBLEMS: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  const outputDir = await mkdtemp(join(tmpdir(), 'orbit-conformance-'));
  const { url, child } = await startHttpServer([BIN, '--http', '--sandbox', '--port', '0'], {
    env: { ...process.env, ORBIT_LOG_LEVEL: 'warning' },
    echoStderr: true,
  });
  let results: Map<string, Check[]>;
  try {
    await runSuite(era.suite(url, outputDir));
    results = await readResults(outputDir);
  } finally {
    await stopProcess(child);
    await rm(outputDir, { recursive: true, force: true });
  }

  const passed: string[] = [];
  const expectedFailures: string[] = [];
  const problems: string[] = [];
  for (const [scenario, checks] of [...results].sort(([a], [b]) => a.localeCompare(b))) {
    const failures = failing(checks);
    const entry = expected.get(scenario);
    if (failures.length === 0) {
      if (entry)
        problems.push(
          `${scenario}: passes but is listed as an expected failure; remove it from ${era.expected}`,
        );
      else passed.push(scenario);
      continue;
    }
    if (!entry) {
      problems.push(`${scenario}: unexpected failure\n    ${failures.map(describeCheck).join('\n    ')}`);
      continue;
    }
    const other = failures.filter((c) => !entry.errors.some((text) => c.errorMessage?.includes(text)));
    if (other.length > 0) {
      problems.push(
        `${scenario}: fails, but not for the listed reason (${entry.reason})\n    ${other.map(describeCheck).join('\n    ')}`,
      );
      continue;
    }
    expectedFailures.push(`${scenario}: ${entry.reason}`);
  }
  for (const scenario of expected.keys()) {
    if (!results.has(scenario))
      problems.push(`${scenario}: listed in ${era.expected} but the suite did not run it`);
  }

  say(
    `\nconformance ${name}: ${passed.length} passed, ${expectedFailures.length} expected failures, ${problems.length} problems (${results.size} scenarios)`,
  );
  say(`passed:\n  ${passed.join('\n  ')}`);
  say(`expected failures (cannot apply):\n  ${expectedFailures.join('\n  ')}`);
  if (problems.length > 0) {
    say(`PROBLEMS:\n  ${problems.join('\n  ')}`);
    return false;
  }
  if (passed.length === 0) {
    say('PROBLEMS: no scenario passed; the suite did not really run');
    return false;
  }
  return true;
}

const { values } = parseArgs({ options: { era: { type: 'string' } } });
const chosen = values.era === undefined ? Object.keys(ERAS) : [values.era];
for (const name of chosen) {
  if (!ERAS[name]) {
    say(`unknown era "${name}"; use one of ${Object.keys(ERAS).join(', ')}`);
    process.exit(2);
  }
}
if (!existsSync(BIN)) {
  say(`${BIN} is missing; run npm run build first.`);
  process.exit(2);
}
let ok = true;
for (const name of chosen) ok = (await runEra(name, ERAS[name]!)) && ok;
if (!ok) process.exitCode = 1;
