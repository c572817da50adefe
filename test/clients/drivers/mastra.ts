/**
 * `@mastra/mcp` 2.x (Node 22): probes with `server/discover` or is pinned to the 2025 handshake.
 * Tools are Mastra tools; their schemas are read the way a Mastra agent sends them to an OpenAI
 * model (through Mastra's OpenAI schema-compat layer), and calls go through `tool.execute`.
 */

import { noopObserve } from '@mastra/core/tools';
import { MCPClient } from '@mastra/mcp';
import { OpenAISchemaCompatLayer, standardSchemaToJSONSchema } from '@mastra/schema-compat';
import { type Called, fromCallToolResult, isRecord, type Session } from '../lib/session.js';
import type { WorkerInput } from '../lib/types.js';
import { packageVersion } from './version.js';

const OPENAI = new OpenAISchemaCompatLayer({
  provider: 'openai',
  modelId: 'gpt-4.1',
  supportsStructuredOutputs: true,
});

export async function open(input: WorkerInput): Promise<Session> {
  const common = {
    protocolVersion: input.case.era === 'modern' ? ('2026-07-28' as const) : ('legacy' as const),
    enableProgressTracking: true,
    timeout: 30_000,
  };
  const mcp = new MCPClient({
    id: `orbit-${input.case.id}`,
    servers: {
      orbit:
        input.case.transport === 'stdio'
          ? { ...common, ...input.server, stderr: 'ignore' }
          : { ...common, url: new URL(input.url!) },
    },
  });
  let onProgress: ((message: string) => void) | undefined;
  await mcp.progress.onUpdate('orbit', (params) => onProgress?.(params.message ?? ''));
  const tools = await mcp.listTools();
  const named = Object.values(tools).map((tool) => ({ name: tool.id.replace(/^orbit_/, ''), tool }));

  return {
    version: `${packageVersion('@mastra/mcp')} + ${packageVersion('@mastra/core')}`,
    async tools() {
      return named.map(({ name, tool }) => {
        if (!tool.inputSchema) return { name, parameters: undefined };
        const compat = OPENAI.processToCompatSchema(tool.inputSchema);
        return { name, parameters: standardSchemaToJSONSchema(compat, { io: 'input' }) };
      });
    },
    async call(name, args, progress) {
      const tool = named.find((entry) => entry.name === name)?.tool;
      if (!tool?.execute) throw new Error(`no Mastra tool ${name}`);
      onProgress = progress;
      try {
        return readMastraResult(await tool.execute(args, { observe: noopObserve }));
      } catch (error) {
        // Mastra throws a MastraError for an isError result (onToolError: 'throw', the default).
        return { isError: true, text: error instanceof Error ? error.message : String(error), images: 0 };
      } finally {
        onProgress = undefined;
      }
    },
    close: () => mcp.disconnect(),
  };
}

/** Where Mastra keeps the MCP content of a structured result (what its `toModelOutput` reads). */
const MCP_CONTENT = Symbol.for('mastra.mcp.callToolContent');

/** A structured result comes back as the structured content, with the MCP content kept beside it. */
function readMastraResult(result: unknown): Called {
  if (!isRecord(result)) return { isError: false, text: String(result), images: 0 };
  const content: unknown = Reflect.get(result, MCP_CONTENT);
  return Array.isArray(content) ? fromCallToolResult({ content }) : fromCallToolResult(result);
}
