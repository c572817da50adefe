/**
 * `@ai-sdk/mcp` 2.x with `ai` 7 (Node 22): 2026-07-28 through `server/discover`, or 2025 with
 * discovery off. Every call goes through `generateText` and a mock model: the model asks for an
 * orbit tool, the SDK runs it over MCP, and the model reads the result.
 */
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { Called, Session } from '../lib/session.js';
import type { WorkerInput } from '../lib/types.js';
import { CALL_NOTE, mcpIsError, NO_PROGRESS, readToolResult } from './ai-sdk-shared.js';
import { packageVersion } from './version.js';

type Generated = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function reply(text: string): Generated {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: USAGE,
    warnings: [],
  };
}

export async function open(input: WorkerInput): Promise<Session> {
  const transportErrors: string[] = [];
  const client = await createMCPClient({
    // What the client's transport reports (a message it could not parse, a failed GET stream).
    onUncaughtError: (error) => transportErrors.push(error instanceof Error ? error.message : String(error)),
    transport:
      input.case.transport === 'stdio'
        ? new Experimental_StdioMCPTransport({ ...input.server, stderr: 'ignore' })
        : { type: 'http', url: input.url! },
    // Off: the 2025 initialize handshake, as for a server that predates 2026-07-28.
    protocolVersionDiscovery: input.case.era === 'modern',
  });
  const tools = await client.tools();

  return {
    version: `${packageVersion('@ai-sdk/mcp')} + ${packageVersion('ai')}`,
    noProgress: NO_PROGRESS,
    callNote: CALL_NOTE,
    async tools() {
      // What a provider receives: the tools as generateText hands them to the model.
      let seen: CallOptions['tools'] = [];
      const model = new MockLanguageModelV4({
        doGenerate: async (options) => {
          seen = options.tools;
          return reply('no tool needed');
        },
      });
      await generateText({ model, tools, prompt: 'List your tools.' });
      return (seen ?? []).flatMap((tool) =>
        tool.type === 'function' ? [{ name: tool.name, parameters: tool.inputSchema }] : [],
      );
    },
    async call(name, args) {
      let received: Called | undefined;
      const model = new MockLanguageModelV4({
        doGenerate: async (options) => {
          received = readToolResult(options.prompt);
          if (received) return reply(`The tool said: ${received.text.slice(0, 80)}`);
          return {
            content: [
              { type: 'tool-call', toolCallId: 'call-1', toolName: name, input: JSON.stringify(args) },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage: USAGE,
            warnings: [],
          };
        },
      });
      const result = await generateText({ model, tools, prompt: `Use ${name}.`, stopWhen: stepCountIs(2) });
      const output = result.steps[0]?.toolResults[0]?.output;
      if (!received) throw new Error(`the model never received the ${name} result`);
      return { ...received, isError: received.isError || mcpIsError(output) };
    },
    transportErrors: () => transportErrors,
    close: () => client.close(),
  };
}
