/**
 * `npm run test:clients`: installs this suite (its own lockfiles, apart from the package), starts
 * the built server over HTTP (with and without sessions), runs every case of cases.ts in its own
 * process on the Node it needs, checks OpenAI strict mode, and prints the client × transport × era
 * table. Exits 1 when any cell fails; the Python SDK is skipped, with the reason, where PyPI
 * cannot be reached. Options: --only <text> (cases whose id contains it), --install (reinstall).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type StartedServer, startHttpServer, stopProcess } from '../../scripts/lib/http-server.js';
import { CASES } from './cases.js';
import { eraMatches, type Row, render } from './lib/table.js';
import type { Case, Cell, Transport, WorkerInput, WorkerResult } from './lib/types.js';
import { httpTap, Wire } from './lib/wire.js';

const SUITE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(SUITE, '../..');
const BIN = join(ROOT, 'dist/orbit-mcp.js');
const CASE_MS = 120_000;
const PARALLEL = 2;

const { values: flags } = parseArgs({
  options: { only: { type: 'string' }, install: { type: 'boolean', default: false } },
});
const scratch = mkdtempSync(join(tmpdir(), 'orbit-clients-'));
const started = Date.now();

if (!existsSync(BIN)) fail(`${BIN} is missing: run npm run build first`);

// 1. Install: a Node 22 binary from the npm registry, then the clients with npm running on it,
//    so that packages declaring Node >= 22 install without an engine warning.
const node22 = nodeFor22();
if (!node22) install(join(SUITE, 'node22'), process.env.PATH ?? '');
const node22Bin = node22 ?? nodeFromRegistry();
install(SUITE, `${dirname(node22Bin)}:${process.env.PATH ?? ''}`);
const size = spawnSync('du', ['-sk', join(SUITE, 'node_modules'), join(SUITE, 'node22/node_modules')], {
  encoding: 'utf8',
});
const kilobytes = size.stdout
  .split('\n')
  .map((line) => Number.parseInt(line, 10))
  .filter(Number.isFinite);
console.log(
  `client suite installed: ${kilobytes.map((kb) => `${Math.round(kb / 1024)} MB`).join(' + ')} ` +
    `(clients + Node 22), ${((Date.now() - started) / 1000).toFixed(0)} s`,
);

// The suite's own code, type-checked against the clients just installed (the root typecheck
// leaves test/clients out: its packages are not there before this step).
const typecheck = spawnSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', SUITE], {
  encoding: 'utf8',
  timeout: 300_000,
});
if (typecheck.status !== 0) fail(`test/clients does not type-check:\n${typecheck.stdout}${typecheck.stderr}`);

// 2. The server over HTTP, with sessions and stateless; stdio cases start their own.
// Every toolset on, so that every tool is checked in strict mode.
const serverArgs = ['--sandbox', '--toolsets', 'all', '--output-dir', join(scratch, 'media')];
const servers: Partial<Record<Transport, StartedServer>> = {};
try {
  servers.http = await startHttpServer([BIN, '--http', '--port', '0', ...serverArgs]);
  servers['http-stateless'] = await startHttpServer([
    BIN,
    '--http',
    '--port',
    '0',
    '--stateless',
    ...serverArgs,
  ]);

  // 3. Every case, two at a time.
  const selected = CASES.filter((c) => !flags.only || c.id.includes(flags.only));
  const results = new Map<string, WorkerResult>();
  const queue = [...selected];
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const result = await runCase(next);
        results.set(next.id, result);
        console.log(`${summary(next, result)}  ${next.id} (${result.node})`);
      }
    }),
  );

  // 4. The Python SDK, where it can be installed.
  const python = flags.only && !'python-sdk'.includes(flags.only) ? undefined : await pythonRows();

  // 5. OpenAI strict mode, judged on Node 22 by the OpenAI Agents SDK's own conversion.
  const all = [...results.values(), ...(python?.results ?? [])];
  const strict = strictCells(all);

  const rows: Row[] = [
    ...selected.map((c) => ({ case: c, result: results.get(c.id), strict: strict[c.id] })),
    ...(python?.rows ?? []).map((row) => (row.result ? { ...row, strict: strict[row.result.id] } : row)),
  ];
  console.log(`\n${render(rows)}\n`);
  // Errors a client's transport reported (the AI SDK logged one per empty priming event, and its
  // session-less GET's 400): each fails its row, and the run says how many there were.
  const transportErrors = all.flatMap((result) =>
    (result.transportErrors ?? []).map((error) => `${result.id}: ${error}`),
  );
  console.log(`transport errors reported by clients: ${transportErrors.length}`);
  for (const error of transportErrors) console.log(`  ${error}`);
  const failed = rows.filter((row) => !row.skipped && !rowPassed(row));
  const skipped = rows.filter((row) => row.skipped);
  for (const row of skipped) console.log(`skipped ${row.case.id}: ${row.skipped}`);
  console.log(
    `client suite: ${rows.length - failed.length - skipped.length} passed, ${failed.length} failed, ` +
      `${skipped.length} skipped (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  for (const row of failed) {
    const log = join(scratch, `${row.case.id}.log`);
    const lines = existsSync(log) ? tail(log) : '';
    if (lines.trim()) console.log(`\n---- ${row.case.id} log (last lines) ----\n${lines}`);
  }
  process.exitCode = failed.length ? 1 : 0;
} finally {
  await Promise.all(Object.values(servers).map((server) => stopProcess(server.child)));
  if (!process.exitCode) rmSync(scratch, { recursive: true, force: true });
  else console.log(`logs kept in ${scratch}`);
}

function rowPassed({ case: c, result, strict }: Row): boolean {
  const cells = [result?.list, strict, result?.chat, result?.search, result?.image];
  return (
    cells.every((cell) => cell?.status === 'pass' || cell?.status === 'n/a') &&
    eraMatches(c.era, result?.wireEra) &&
    !result?.transportErrors?.length
  );
}

function summary(c: Case, result: WorkerResult): string {
  const cells = [result.list, result.chat, result.search, result.image];
  const passed =
    cells.every((cell) => cell.status !== 'fail') &&
    eraMatches(c.era, result.wireEra) &&
    !result.transportErrors?.length;
  return passed ? 'ok  ' : 'FAIL';
}

/** Runs one case in its own process, killed (with everything it started) after CASE_MS. */
async function runCase(c: Case): Promise<WorkerResult> {
  const input: WorkerInput = {
    case: c,
    server: { command: process.execPath, args: [BIN, ...serverArgs] },
    url: c.transport === 'stdio' ? undefined : servers[c.transport]?.url,
    scratch: join(scratch, c.id),
  };
  mkdirSync(input.scratch, { recursive: true });
  const resultPath = join(scratch, `${c.id}.json`);
  const node = c.node === 22 ? node22Bin : process.execPath;
  const log = join(scratch, `${c.id}.log`);
  const code = await runBounded(node, ['--import', 'tsx', join(SUITE, 'worker.ts')], log, {
    ORBIT_CLIENT_CASE: JSON.stringify(input),
    ORBIT_CLIENT_RESULT: resultPath,
    // LangChain's adapters report schema trouble through `debug`; let it through to be caught.
    DEBUG: '@langchain/mcp-adapters:*',
  });
  if (existsSync(resultPath)) return JSON.parse(readFileSync(resultPath, 'utf8'));
  const failed: Cell = {
    status: 'fail',
    note: code === null ? `no result in ${CASE_MS / 1000} s` : `worker exited ${code}`,
  };
  return {
    id: c.id,
    version: '?',
    node,
    list: failed,
    chat: failed,
    search: failed,
    image: failed,
    warnings: [],
    delivered: [],
  };
}

function runBounded(
  command: string,
  args: string[],
  log: string,
  env: NodeJS.ProcessEnv,
): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, CASE_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      writeFileSync(log, Buffer.concat(chunks));
      done(code);
    });
  });
}

function strictCells(results: WorkerResult[]): Record<string, Cell> {
  const input = join(scratch, 'results.json');
  const output = join(scratch, 'strict.json');
  writeFileSync(input, JSON.stringify(results));
  const run = spawnSync(node22Bin, ['--import', 'tsx', join(SUITE, 'strict-check.ts'), input, output], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: CASE_MS,
  });
  if (existsSync(output)) return JSON.parse(readFileSync(output, 'utf8'));
  const failed: Cell = {
    status: 'fail',
    note: `strict check failed: ${(run.stderr || String(run.error)).split('\n')[0]}`,
  };
  return Object.fromEntries(results.map((result) => [result.id, failed]));
}

/** The official Python SDK: used if importable, else `pip install mcp`; skipped with the reason if neither works. */
async function pythonRows(): Promise<{ rows: Row[]; results: WorkerResult[] }> {
  const transports: Transport[] = ['stdio', 'http', 'http-stateless'];
  const casesOf = (node: string) =>
    (['modern', 'legacy'] as const).flatMap((era) =>
      transports.map((transport) => ({
        id: `python-sdk-${transport}-${era}`,
        client: 'python-sdk',
        transport,
        era,
        node,
      })),
    );
  const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (python.status !== 0) return skip('python3 not found');
  const target = join(SUITE, '.python');
  const env = { ...process.env, PYTHONPATH: target };
  const pinned = readFileSync(join(SUITE, 'python/requirements.txt'), 'utf8').match(/^mcp==(\S+)$/m)?.[1];
  if (!pinned || !existsSync(join(target, `mcp-${pinned}.dist-info`))) {
    const pip = spawnSync(
      'python3',
      [
        ...[
          '-m',
          'pip',
          'install',
          '--quiet',
          '--disable-pip-version-check',
          '--retries',
          '0',
          '--timeout',
          '15',
        ],
        ...['--target', target, '--upgrade', '-r', join(SUITE, 'python/requirements.txt')],
      ],
      { encoding: 'utf8', timeout: 180_000 },
    );
    if (pip.status !== 0) {
      const reason =
        (pip.stderr || String(pip.error)).trim().split('\n').filter(Boolean).at(-1) ?? 'no output';
      return skip(`\`pip install mcp\` failed (no Python package index reachable?): ${reason.slice(0, 160)}`);
    }
  }
  const rows: Row[] = [];
  const results: WorkerResult[] = [];
  for (const c of casesOf(python.stdout.trim() || 'python3')) {
    const wire = new Wire();
    const wireLog = join(scratch, `${c.id}.wire.jsonl`);
    const tap = c.transport === 'stdio' ? undefined : await httpTap(servers[c.transport]!.url, wire);
    const input = {
      case: c,
      server: {
        command: process.execPath,
        args: [join(SUITE, 'lib/stdio-tap.mjs'), wireLog, '--', process.execPath, BIN, ...serverArgs],
      },
      url: tap?.url,
    };
    const resultPath = join(scratch, `${c.id}.json`);
    const code = await runBounded(
      'python3',
      [join(SUITE, 'python/client.py'), JSON.stringify(input), resultPath],
      join(scratch, `${c.id}.log`),
      env,
    );
    tap?.close();
    if (!tap) wire.recordFile(wireLog);
    const failed: Cell = { status: 'fail', note: `python exited ${code}` };
    const result: WorkerResult = existsSync(resultPath)
      ? JSON.parse(readFileSync(resultPath, 'utf8'))
      : {
          id: c.id,
          version: 'mcp (Python)',
          node: c.node,
          list: failed,
          chat: failed,
          search: failed,
          image: failed,
          warnings: [],
          delivered: [],
        };
    result.wireEra = wire.era();
    results.push(result);
    rows.push({ case: c, result });
  }
  return { rows, results };

  function skip(reason: string) {
    return {
      rows: [
        {
          case: {
            id: 'python-sdk',
            client: 'python-sdk',
            transport: 'stdio, HTTP',
            era: 'both',
            node: 'python',
          },
          skipped: reason,
        },
      ],
      results: [],
    };
  }
}

/** `npm ci` in `dir` unless its node_modules already match its lockfile; bounded to 10 minutes. */
function install(dir: string, path: string): void {
  const marker = join(dir, 'node_modules/.package-lock.json');
  const lock = join(dir, 'package-lock.json');
  if (!flags.install && existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log(`npm ci in ${dir.replace(`${ROOT}/`, '')}`);
  const run = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: dir,
    env: { ...process.env, PATH: path },
    stdio: 'inherit',
    timeout: 600_000,
  });
  if (run.status !== 0) fail(`npm ci in ${dir} failed (${run.status ?? run.error})`);
}

/** This Node, when it is 22.13 or later (what the Node 22 clients declare). */
function nodeFor22(): string | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13) ? process.execPath : undefined;
}

/** The Node 22 binary node22/ installed from the npm registry (node-<platform>-<arch>). */
function nodeFromRegistry(): string {
  const bin = join(SUITE, `node22/node_modules/node-${process.platform}-${process.arch}/bin/node`);
  if (!existsSync(bin))
    fail(`no Node 22 binary for ${process.platform}-${process.arch} in test/clients/node22`);
  return bin;
}

function tail(path: string): string {
  return readFileSync(path, 'utf8').split('\n').slice(-25).join('\n');
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
