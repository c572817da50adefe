/**
 * orbit-mcp as a library, for agent frameworks and programs that host MCP servers in process:
 * `createOrbitServer(options)` takes the CLI's options and gives MCP servers to connect to any
 * transport of the SDK (an in-memory pair, stdio, a custom one). The `orbit-mcp` binary is the
 * same server, bundled for a fast start.
 */

import { delimiter } from 'node:path';
import type { Server, Transport } from '@modelcontextprotocol/server';
import { prompts } from '../prompts/index.js';
import { resources } from '../resources/index.js';
import { toolCatalog } from '../tools/index.js';
import { type ConfigInput, emptyToolsetsWarning, loadConfig, type Toolset } from './config.js';
import { createLogger, type LogLevel } from './log.js';
import { createLocalServer } from './mcp/server.js';
import { createRuntime, type Runtime, type Target } from './runtime.js';

export type { Toolset } from './config.js';
export type { Target } from './runtime.js';

/** The CLI's options, by the same names (`--base-url` is `baseUrl`); secrets may be given here too. */
export interface OrbitServerOptions {
  /** Run against the built-in offline sandbox (started in process on a free loopback port). */
  sandbox?: boolean;
  baseUrl?: string;
  directBaseUrl?: string;
  apiKey?: string;
  managementToken?: string;
  session?: string;
  /** Toolsets to enable, or 'all'. */
  toolsets?: readonly Toolset[] | 'all';
  readOnly?: boolean;
  outputDir?: string;
  /** Folders local input files may be read from. */
  allowDirs?: readonly string[];
  timeoutMs?: number;
  maxRetries?: number;
  maxSpendUsd?: number;
  logLevel?: LogLevel;
  /** Also read ORBIT_* variables for what is not given here (as the CLI does). Default true. */
  env?: boolean;
}

export interface OrbitServer {
  /** Which platform the servers talk to. */
  readonly target: Target;
  /** A new MCP server for one connection (SDK v2 `Server`); connect it to a transport, or use `connect`. */
  createServer(): Server;
  /** Creates a server and connects it to the transport; resolves once connected. */
  connect(transport: Transport): Promise<Server>;
  /** Closes the HTTP pool and the sandbox, if one was started. */
  close(): Promise<void>;
}

export async function createOrbitServer(options: OrbitServerOptions = {}): Promise<OrbitServer> {
  const config = loadConfig(flagsOf(options), options.env === false ? {} : process.env);
  const emptyToolsets = emptyToolsetsWarning(config.toolsets, toolCatalog.hasTools);
  if (emptyToolsets) createLogger(config.logLevel).warning(emptyToolsets);
  const runtime: Runtime = await createRuntime(config, { sandbox: options.sandbox });
  const createServer = () => createLocalServer(runtime, { tools: toolCatalog, resources, prompts });
  return {
    target: runtime.target,
    createServer,
    async connect(transport) {
      const server = createServer();
      await server.connect(transport);
      return server;
    },
    close: () => runtime.close(),
  };
}

/** Options as the configuration schema reads them (as flags would be). */
function flagsOf(
  options: OrbitServerOptions,
): Partial<Record<keyof ConfigInput, string | boolean | undefined>> {
  const text = (value: number | undefined) => (value === undefined ? undefined : String(value));
  return {
    baseUrl: options.baseUrl,
    directBaseUrl: options.directBaseUrl,
    apiKey: options.apiKey,
    managementToken: options.managementToken,
    session: options.session,
    toolsets: options.toolsets === 'all' ? 'all' : options.toolsets?.join(','),
    readOnly: options.readOnly,
    outputDir: options.outputDir,
    allowDirs: options.allowDirs?.join(delimiter),
    timeoutMs: text(options.timeoutMs),
    maxRetries: text(options.maxRetries),
    maxSpendUsd: text(options.maxSpendUsd),
    logLevel: options.logLevel,
  };
}
