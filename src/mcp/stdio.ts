import type { Runtime } from '../runtime.js';
import { VERSION } from '../version.js';
import { createMcpServer, type Registry } from './server.js';
import { StdioLineTransport } from './stdio-transport.js';

/** Serves one client over stdin/stdout; stdout carries protocol messages only. */
export async function serveStdio(runtime: Runtime, registry: Registry): Promise<void> {
  const server = createMcpServer({
    ...registry,
    config: runtime.config,
    client: runtime.client,
    credentials: runtime.credentials,
    files: runtime.files,
    jobs: runtime.jobs,
    trust: 'local',
    tenant: 'local',
    version: VERSION,
    target: runtime.target,
  });
  const transport = new StdioLineTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
  await runtime.close();
}
