import { serveStdio as serveStdioEntry } from '@modelcontextprotocol/server/stdio';
import { createLogger } from '../log.js';
import type { Runtime } from '../runtime.js';
import { createLocalServer, type Registry } from './server.js';
import { StdioLineTransport } from './stdio-transport.js';

/**
 * Serves one client over stdin/stdout, in whichever protocol era the client opens with
 * (2026-07-28 `server/discover` or a 2025 `initialize`); stdout carries protocol messages only.
 */
export async function serveStdio(runtime: Runtime, registry: Registry): Promise<void> {
  const transport = new StdioLineTransport();
  const log = createLogger(runtime.config.logLevel);
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    // As process 1 (a container) no signal ends Node by default: SIGTERM closes like end of input.
    process.once('SIGTERM', resolve);
  });
  const handle = serveStdioEntry(() => createLocalServer(runtime, registry), {
    transport,
    onerror: (error) => log.debug(error.message),
  });
  await closed;
  await handle.close().catch(() => {});
  await runtime.close();
  // Stop reading, so an input that never ended (a signal) does not hold the process open.
  process.stdin.destroy();
}
