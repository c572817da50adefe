/** The MCP SDK's v2 client (`@modelcontextprotocol/client`), pinned to 2026-07-28 or speaking 2025. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fromCallToolResult, type Session } from '../lib/session.js';
import type { WorkerInput } from '../lib/types.js';
import { packageVersion } from './version.js';

export async function open(input: WorkerInput): Promise<Session> {
  const modern = input.case.era === 'modern';
  const client = new Client(
    { name: 'orbit-client-suite', version: '1' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    input.case.transport === 'stdio'
      ? new StdioClientTransport({ ...input.server, stderr: 'pipe' })
      : new StreamableHTTPClientTransport(new URL(input.url!)),
  );
  return {
    version: packageVersion('@modelcontextprotocol/client'),
    async tools() {
      const { tools } = await client.listTools();
      return tools.map((tool) => ({ name: tool.name, parameters: tool.inputSchema }));
    },
    async call(name, args, onProgress) {
      const result = await client.callTool(
        { name, arguments: args },
        onProgress ? { onprogress: (progress) => onProgress(progress.message ?? '') } : {},
      );
      return fromCallToolResult(result);
    },
    close: () => client.close(),
  };
}
