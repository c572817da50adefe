import { delimiter } from 'node:path';
import { parseArgs } from 'node:util';
import { prompts } from '../prompts/index.js';
import { resources } from '../resources/index.js';
import { toolCatalog } from '../tools/index.js';
import { ConfigError, type ConfigInput, emptyToolsetsWarning, loadConfig } from './config.js';
import { CREDENTIAL_KINDS, type CredentialKind } from './credentials.js';
import { manageHeapGrowth } from './heap.js';
import { serveStdio } from './mcp/stdio.js';
import { startTracing } from './otel/index.js';
import { createRuntime } from './runtime.js';
import { secretFlagProblem } from './secret-flags.js';
import { redact } from './secrets.js';
import { VERSION } from './version.js';
import { ENV_PREFIX } from './word.js';

const HELP = `orbit-mcp ${VERSION}: MCP server for the Orbit AI platform

Usage:
  orbit-mcp [options]              serve MCP over stdio (what desktop assistants start)
  orbit-mcp --http [--port 8787]   serve MCP over Streamable HTTP at /mcp
  orbit-mcp --sandbox              run against the built-in offline sandbox (free, deterministic)
  orbit-mcp sandbox [--port N]     run the sandbox platform emulator alone
  orbit-mcp login [--paste]        sign in through the browser; the key is stored for this platform.
                                   With --paste (automatic over SSH, in a container, without a
                                   display) the address the browser ends on can be pasted back
  orbit-mcp login --management-token | --session   store one read from stdin (never from argv)
  orbit-mcp logout [--all]         remove the stored credentials of the configured platform (or
                                   --base-url), or of every platform with --all; says what went
  orbit-mcp whoami                 platform and which credentials are present (never values); with
                                   no platform configured, every platform that has stored ones
  orbit-mcp doctor [--json] [--require api_key,management_token,session|all]
                                   check the platform's replies against the tools' schemas through
                                   free routes only; exit 0 all checked and ok, 1 drift, 2 a route
                                   unreachable or skipped for want of a required credential

Options:
  --sandbox               start the offline sandbox in-process and use it
  --http                  Streamable HTTP instead of stdio
  --port N                HTTP port (default 8787; 0 picks a free one)
  --host H                HTTP bind address (default 127.0.0.1)
  --stateless             HTTP without sessions
  --allowed-hosts a,b     extra Host (and Origin) names to accept behind a proxy
                          (ORBIT_ALLOWED_HOSTS)
  --trust-proxy N         proxies in front whose X-Forwarded-For names the client, for the
                          per-address limits (default 0: ignored; ORBIT_TRUST_PROXY)
  --rate-limit SPEC       requests per key and per address, paid calls per key, e.g.
                          key=50/s:200,address=200/s:800,paid=10/s:40 (the default), or off
                          (ORBIT_RATE_LIMIT)
  --audit-log WHERE       one JSON line per tool call: stderr (default), a file, or off
                          (ORBIT_AUDIT_LOG)
  --toolsets a,b|all      toolsets to enable (ORBIT_TOOLSETS)
  --read-only             hide every tool that writes or spends (ORBIT_READ_ONLY)
  --base-url URL          platform base URL (ORBIT_BASE_URL)
  --direct-base-url URL   second API host (ORBIT_DIRECT_BASE_URL)
  --output-dir DIR        where media are saved (ORBIT_OUTPUT_DIR)
  --allow-dir DIR         a folder local inputs may be read from; repeatable (ORBIT_ALLOW_DIRS)
  --timeout-ms N          per-request timeout (ORBIT_TIMEOUT_MS)
  --max-retries N         retries of safe calls (ORBIT_MAX_RETRIES)
  --max-spend-usd N       refuse paid calls past N USD, per process (stdio) or key (HTTP) (ORBIT_MAX_SPEND_USD)
  --budget-window T       HTTP: the key's budget starts again after T, e.g. 24h, 7d (default 24h; ORBIT_BUDGET_WINDOW)
  --log-level L           debug|info|warning|error|silent (ORBIT_LOG_LEVEL)

Several replicas (HTTP):
  --store URL             shared state in Redis or Valkey, redis://host:port (ORBIT_STORE_URL)
  --drain-ms N            on SIGTERM, time running calls get to finish (default 25000; ORBIT_DRAIN_MS)
  --replica-id NAME       this process in logs and call leases (ORBIT_REPLICA_ID)

Secrets come from the environment only (ORBIT_API_KEY, ORBIT_MANAGEMENT_TOKEN, ORBIT_SESSION),
never from flags, so they do not show in process lists.`;

const OPTIONS = {
  sandbox: { type: 'boolean' },
  http: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  stateless: { type: 'boolean' },
  'allowed-hosts': { type: 'string' },
  'trust-proxy': { type: 'string' },
  'rate-limit': { type: 'string' },
  'audit-log': { type: 'string' },
  toolsets: { type: 'string' },
  'read-only': { type: 'boolean' },
  'base-url': { type: 'string' },
  'direct-base-url': { type: 'string' },
  'output-dir': { type: 'string' },
  'allow-dir': { type: 'string', multiple: true },
  'timeout-ms': { type: 'string' },
  'max-retries': { type: 'string' },
  'max-spend-usd': { type: 'string' },
  'budget-window': { type: 'string' },
  'log-level': { type: 'string' },
  store: { type: 'string' },
  'drain-ms': { type: 'string' },
  'replica-id': { type: 'string' },
  'management-token': { type: 'boolean' },
  session: { type: 'boolean' },
  json: { type: 'boolean' },
  all: { type: 'boolean' },
  paste: { type: 'boolean' },
  require: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

export async function main(argv: string[]): Promise<number> {
  const secretFlag = secretFlagProblem(argv, new Set(Object.keys(OPTIONS)));
  if (secretFlag) {
    process.stderr.write(`orbit-mcp: ${secretFlag}\nRun orbit-mcp --help for usage.\n`);
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nRun orbit-mcp --help for usage.\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stderr.write(`${HELP}\n`);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const port = parsePort(values.port);
  if (port instanceof Error) {
    process.stderr.write(`${port.message}\n`);
    return 2;
  }
  const command = positionals[0];
  if (command === 'sandbox') {
    const stopped = stopSignal();
    const { startSandbox } = await import('./sandbox/index.js');
    const sandboxPort = port ?? 8788;
    let sandbox: Awaited<ReturnType<typeof startSandbox>>;
    try {
      sandbox = await startSandbox({ port: sandboxPort, quiet: false });
    } catch (error) {
      process.stderr.write(`${listenProblem(error, '127.0.0.1', sandboxPort)}\n`);
      return exitSoon(1);
    }
    process.stderr.write(`Sandbox platform listening at ${sandbox.url}\nDemo API key: ${sandbox.demoKey}\n`);
    await stopped;
    await sandbox.close();
    return 0;
  }
  if ((values['management-token'] || values.session) && command !== 'login') {
    process.stderr.write(
      `orbit-mcp: --management-token and --session belong to \`orbit-mcp login\`, which reads the value from stdin; a server reads ${ENV_PREFIX}MANAGEMENT_TOKEN and ${ENV_PREFIX}SESSION.\n`,
    );
    return 2;
  }
  const require = parseRequired(values.require);
  if (require instanceof Error || (require.length > 0 && command !== 'doctor')) {
    process.stderr.write(
      `${require instanceof Error ? require.message : '--require belongs to `orbit-mcp doctor`.'}\n`,
    );
    return 2;
  }
  if (values.paste && command !== 'login') {
    process.stderr.write('--paste belongs to `orbit-mcp login`.\n');
    return 2;
  }
  if (values.all && command !== 'logout') {
    process.stderr.write('--all belongs to `orbit-mcp logout`.\n');
    return 2;
  }
  const accountCommand = (['login', 'logout', 'whoami'] as const).find((name) => name === command);
  if (command !== undefined && !accountCommand && command !== 'doctor') {
    // A secret pasted where a command goes is not echoed back.
    process.stderr.write(`Unknown command "${redact(command)}". Run orbit-mcp --help for usage.\n`);
    return 2;
  }
  if (positionals.length > 1) {
    process.stderr.write(
      `orbit-mcp ${command}: takes no further arguments (secrets are read from the environment or stdin, never from the command line). Run orbit-mcp --help for usage.\n`,
    );
    return 2;
  }

  const flags: Partial<Record<keyof ConfigInput, string | boolean | undefined>> = {
    baseUrl: values['base-url'],
    directBaseUrl: values['direct-base-url'],
    toolsets: values.toolsets,
    readOnly: values['read-only'],
    outputDir: values['output-dir'],
    allowDirs: values['allow-dir']?.join(delimiter),
    timeoutMs: values['timeout-ms'],
    maxRetries: values['max-retries'],
    maxSpendUsd: values['max-spend-usd'],
    budgetWindow: values['budget-window'],
    logLevel: values['log-level'],
    store: values.store,
    drainMs: values['drain-ms'],
    replicaId: values['replica-id'],
    trustProxy: values['trust-proxy'],
    rateLimit: values['rate-limit'],
    auditLog: values['audit-log'],
    allowedHosts: values['allowed-hosts'],
  };
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(flags);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (accountCommand) {
    const { runAccountCommand } = await import('./auth/cli.js');
    return runAccountCommand(accountCommand, config, {
      managementToken: values['management-token'],
      session: values.session,
      sandbox: values.sandbox,
      all: values.all,
      paste: values.paste,
    });
  }
  // Listened for before the slow part of the start (the store, the sandbox), for the HTTP server.
  const stopped = values.http && command === undefined ? stopSignal() : undefined;
  const runtime = await createRuntime(config, {
    sandbox: values.sandbox,
    tracing: await startTracing(process.env, VERSION),
  });
  if (command === 'doctor') {
    const [{ doctorCommand }, { FREE_ROUTES }] = await Promise.all([
      import('./doctor/command.js'),
      import('../tools/doctor-routes.js'),
    ]);
    const { code } = await doctorCommand(runtime, FREE_ROUTES, { json: values.json, require });
    await runtime.close();
    return code;
  }
  if (runtime.target.kind === 'none') {
    process.stderr.write(
      'orbit-mcp: no platform configured (ORBIT_BASE_URL is not set). Tools will explain how to configure it; start with --sandbox to try everything offline.\n',
    );
  }
  // The transports are handed what they serve; nothing in src/mcp imports the tools.
  const emptyToolsets = emptyToolsetsWarning(config.toolsets, toolCatalog.hasTools);
  if (emptyToolsets) process.stderr.write(`orbit-mcp: ${emptyToolsets}\n`);
  const registry = { tools: toolCatalog, resources, prompts };
  // Both transports: media passes through a stdio server as much as through the HTTP one.
  manageHeapGrowth(values.http ? 'http' : 'stdio');
  if (values.http) {
    const { serveHttp } = await import('./mcp/http/endpoint/serve.js');
    const listen = { port: port ?? 8787, host: values.host ?? '127.0.0.1' };
    let http: Awaited<ReturnType<typeof serveHttp>>;
    try {
      http = await serveHttp(runtime, registry, {
        ...listen,
        stateless: values.stateless ?? false,
        allowedHosts: config.allowedHosts,
        trustProxy: config.trustProxy,
      });
    } catch (error) {
      // The in-process sandbox and the store's connections would otherwise keep the process alive.
      const problem =
        error instanceof ConfigError ? error.message : listenProblem(error, listen.host, listen.port);
      process.stderr.write(`${problem}\n`);
      await runtime.close().catch(() => {});
      return exitSoon(1);
    }
    const shared = runtime.store.shared ? `, shared store, replica ${runtime.replicaId}` : '';
    process.stderr.write(`orbit-mcp listening at ${http.url} (${runtime.target.kind}${shared})\n`);
    await (stopped ?? stopSignal());
    // Running calls finish (or hand their jobs over) before the process goes.
    await http.drain();
    await http.close();
    await runtime.close();
    return exitSoon(0);
  }
  await serveStdio(runtime, registry);
  return 0;
}

function parsePort(value: string | undefined): number | undefined | Error {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return new Error(`--port: "${value}" is not a port number (0..65535; 0 picks a free port).`);
  }
  return port;
}

/** `doctor --require a,b`: the credentials whose routes must be checked, or `all`. */
function parseRequired(value: string | undefined): CredentialKind[] | Error {
  if (value === undefined) return [];
  const kinds: CredentialKind[] = [];
  for (const word of value.split(',').map((part) => part.trim().replaceAll('-', '_'))) {
    const kind = CREDENTIAL_KINDS.find((known) => known === word);
    if (word === 'all') kinds.push(...CREDENTIAL_KINDS);
    else if (kind) kinds.push(kind);
    else
      return new Error(
        `--require: "${word}" is not a credential kind; use api_key, management_token, session (comma-separated) or all.`,
      );
  }
  return kinds;
}

/** After a drained shutdown, how long open handles may keep the process before it exits anyway. */
const EXIT_GRACE_MS = 2_000;

/**
 * Everything is closed: a handle still open somewhere must not keep the process alive (a drained
 * replica until the orchestrator kills it, a failed start forever). The timer never holds it.
 */
function exitSoon(code: number): number {
  setTimeout(() => {
    process.stderr.write(
      `orbit-mcp: exiting with handles still open (${process.getActiveResourcesInfo().join(', ')})\n`,
    );
    process.exit(code);
  }, EXIT_GRACE_MS).unref();
  return code;
}

/** A listen error in words, with what to do about the usual one (the port is taken). */
function listenProblem(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return `orbit-mcp: port ${port} on ${host} is already in use (EADDRINUSE). Stop what listens there, or pick another port with --port (0 picks a free one).`;
  }
  if (code === 'EACCES') {
    return `orbit-mcp: not allowed to listen on ${host}:${port} (EACCES); ports below 1024 need privileges, use --port 8787 or higher.`;
  }
  return `orbit-mcp: cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Resolves at the first SIGINT or SIGTERM. Called before the server starts: as process 1 (in a
 * container) a signal nobody listens for is ignored, so one sent while the server starts (a pod
 * deleted during a rollout) was lost, and the process ran on until killed at the end of the grace
 * period. Now the server starts, drains at once and exits 0.
 */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
