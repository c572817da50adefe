/**
 * `mcp-remote`, the stdio bridge desktop hosts use to reach a remote server: a 2025 stdio client
 * (the SDK's v2 client in its 2025 mode) talks to `mcp-remote`, which talks Streamable HTTP to
 * the server; `--protocol auto` makes the bridge speak 2026-07-28 upstream.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fromCallToolResult, type Session } from '../lib/session.js';
import type { WorkerInput } from '../lib/types.js';
import { packageVersion } from './version.js';

const PROXY = fileURLToPath(new URL('../node_modules/mcp-remote/dist/proxy.js', import.meta.url));

export async function open(input: WorkerInput): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      PROXY,
      input.url!,
      '--transport',
      'http-only',
      '--protocol',
      input.case.era === 'modern' ? 'auto' : 'legacy',
    ],
    // Its token store, kept out of the home folder.
    env: { PATH: process.env.PATH ?? '', MCP_REMOTE_CONFIG_DIR: input.scratch },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'orbit-client-suite', version: '1' });
  await client.connect(transport);
  return {
    version: packageVersion('mcp-remote'),
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
