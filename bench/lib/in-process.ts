import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
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
import { type UpstreamRequest, upstreamCaller } from './upstream-request.js';

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

/**
 * The baseline of the per-call rows: a bare SDK v2 server whose tools each send one fixed
 * request with undici (a keep-alive Agent, like orbit-mcp's) and return the reply as text, joined
 * to an SDK client the same way as orbit-mcp in startInProcess, bundled the same way.
 * @public bench/run.ts imports the bundled copy of this file by its path, which knip cannot follow.
 */
export async function startBareInProcess(
  baseUrl: string,
  apiKey: string,
  tools: Record<string, UpstreamRequest>,
): Promise<InProcess> {
  const upstream = upstreamCaller(baseUrl, apiKey);
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  for (const [name, sent] of Object.entries(tools)) {
    server.registerTool(
      name,
      { description: 'Sends one platform request, returns its reply.', inputSchema: z.looseObject({}) },
      async () => {
        const { status, text } = await upstream.send(sent);
        return { content: [{ type: 'text', text }], isError: status !== 200 };
      },
    );
  }
  const client = new Client({ name: 'bare-bench', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (result.isError) throw new Error(`bare ${name} failed: ${JSON.stringify(result.content)}`);
      return result;
    },
    async close() {
      await client.close();
      await server.close();
      await upstream.close();
    },
  };
}
