/**
 * `@langchain/mcp-adapters` (Node 20; the 2025 revision through the 1.x SDK): tools become
 * LangChain `DynamicStructuredTool`s and are invoked with a tool call, as an agent does; what the
 * model would get back is the resulting ToolMessage.
 */
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { type Called, isRecord, type Session } from '../lib/session.js';
import type { WorkerInput } from '../lib/types.js';
import { packageVersion } from './version.js';

export async function open(input: WorkerInput): Promise<Session> {
  let onProgress: ((message: string) => void) | undefined;
  const client = new MultiServerMCPClient({
    mcpServers: {
      orbit:
        input.case.transport === 'stdio'
          ? { transport: 'stdio', ...input.server, stderr: 'ignore' }
          : { transport: 'http', url: input.url!, automaticSSEFallback: false },
    },
    useStandardContentBlocks: true,
    onProgress: (progress) => onProgress?.(progress.message ?? ''),
  });
  const tools = await client.getTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  return {
    version: `${packageVersion('@langchain/mcp-adapters')} + ${packageVersion('@langchain/core')}`,
    async tools() {
      // What a chat model integration sends: LangChain's OpenAI tool format.
      return tools.map((tool) => ({
        name: tool.name,
        parameters: convertToOpenAITool(tool).function.parameters,
      }));
    },
    async call(name, args, progress) {
      const tool = byName.get(name);
      if (!tool) throw new Error(`no LangChain tool ${name}`);
      onProgress = progress;
      try {
        const message: unknown = await tool.invoke({ type: 'tool_call', id: 'call-1', name, args });
        return readToolMessage(message);
      } catch (error) {
        // The adapters turn an isError result into a ToolException.
        return { isError: true, text: error instanceof Error ? error.message : String(error), images: 0 };
      } finally {
        onProgress = undefined;
      }
    },
    close: () => client.close(),
  };
}

function readToolMessage(message: unknown): Called {
  const content = isRecord(message) ? message.content : undefined;
  const blocks =
    typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  const parts = blocks.filter(isRecord);
  return {
    isError: isRecord(message) && message.status === 'error',
    text: parts
      .filter((part) => part.type === 'text')
      .map((part) => String(part.text))
      .join('\n'),
    images: parts.filter((part) => part.type === 'image' || part.type === 'image_url').length,
  };
}
