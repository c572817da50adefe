import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { prompts } from '../../prompts/index.js';
import { resources } from '../../resources/index.js';
import { loadConfig } from '../../src/config.js';
import { StaticCredentials } from '../../src/credentials.js';
import { MediaStore } from '../../src/files/media-store.js';
import { JobStore } from '../../src/jobs/store.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { HttpClient } from '../../src/upstream/client.js';
import { toolCatalog } from '../../tools/index.js';
import { BENCH_OUTPUT_DIR } from './paths.js';

export interface InProcess {
  call(
    name: string,
    args: Record<string, unknown>,
    onprogress?: (progress: Progress) => void,
  ): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * The real server factory and a real SDK client joined by the SDK's in-memory transport: what a
 * call costs inside orbit-mcp (validation, the HTTP client, SSE parsing, rendering), without a
 * process boundary whose cost would be the transport's, not ours.
 */
export async function startInProcess(
  baseUrl: string,
  apiKey: string,
  flags: Parameters<typeof loadConfig>[0] = {},
): Promise<InProcess> {
  const config = loadConfig({ baseUrl, logLevel: 'error', ...flags }, {});
  const http = new HttpClient({
    baseUrl,
    timeoutMs: config.timeoutMs,
    retry: { maxRetries: 0 },
    userAgent: 'orbit-bench',
  });
  const server = createMcpServer({
    config,
    client: http,
    credentials: new StaticCredentials([{ kind: 'api_key', value: apiKey, source: 'env' }]),
    tools: toolCatalog,
    resources,
    prompts,
    files: { outputDir: BENCH_OUTPUT_DIR, media: new MediaStore() },
    trust: 'local',
    tenant: 'local',
    jobs: new JobStore(),
    target: { kind: 'platform', baseUrl },
    version: 'bench',
  });
  const client = new Client({ name: 'orbit-bench', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    async call(name, args, onprogress) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        onprogress,
      })) as CallToolResult;
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result;
    },
    async close() {
      await client.close();
      await server.close();
      await http.close();
    },
  };
}
