import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { buildApp, createEnvelopes } from './app.js';
import { CONTROL_PREFIX, SANDBOX_DEMO_KEY } from './constants.js';
import { FaultControl } from './faults.js';
import { SandboxState } from './state.js';
import { SandboxEnclave } from './tee/enclave.js';
import type { RecordedRequest, Sandbox, SandboxContext, SandboxOptions, SandboxTiming } from './types.js';

const DEFAULT_TIMING: SandboxTiming = { streamChunkDelayMs: 0 };

/**
 * Starts the platform emulator on 127.0.0.1. Never writes to stdout (stdio MCP mode owns it);
 * log lines go to stderr, and only when `quiet: false`.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const quiet = options.quiet ?? true;
  const sink = options.log ?? ((line: string) => process.stderr.write(`[orbit-sandbox] ${line}\n`));
  const shutdown = new AbortController();
  const requests: RecordedRequest[] = [];
  const state = new SandboxState(now);
  const faults = new FaultControl();
  const tee = new SandboxEnclave(now);
  const ctx: SandboxContext = {
    state,
    faults,
    timing: { ...DEFAULT_TIMING, ...options.timing },
    requests,
    maxRecorded: options.maxRecorded ?? 10_000,
    now,
    log: (line) => {
      if (!quiet) sink(line);
    },
    ...createEnvelopes(),
    closing: shutdown.signal,
    tee,
  };
  const app = buildApp(ctx);

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  // The caller says where it listens (once): `orbit-mcp sandbox` prints it with the demo key.
  const url = `http://127.0.0.1:${port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    demoKey: SANDBOX_DEMO_KEY,
    teeRootsPath: `${CONTROL_PREFIX}/tee/roots`,
    state,
    faults,
    requests,
    tee,
    clearRequests: () => {
      requests.length = 0;
    },
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        shutdown.abort();
        server.close(() => resolve());
        // Keep-alive and streaming connections would otherwise hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      return closed;
    },
  };
}
