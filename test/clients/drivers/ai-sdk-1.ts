/**
 * `@ai-sdk/mcp` 1.x with `ai` 6 (Node 20; the 2025 revision only). Every call goes through
 * `generateText` and a mock model, as in ai-sdk-2.ts.
 */
import { createMCPClient } from '@ai-sdk/mcp-v1';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp-v1/mcp-stdio';
import { generateText, stepCountIs } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import type { Called, Session } from '../lib/session.js';
import type { WorkerInput } from '../lib/types.js';
import { CALL_NOTE, mcpIsError, NO_PROGRESS, readToolResult } from './ai-sdk-shared.js';
import { packageVersion } from './version.js';

type Generated = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];

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
  });
  const tools = await client.tools();

  return {
    version: `${packageVersion('@ai-sdk/mcp-v1')} + ${packageVersion('ai-v6')}`,
    noProgress: NO_PROGRESS,
    callNote: CALL_NOTE,
    async tools() {
      // What a provider receives: the tools as generateText hands them to the model.
      let seen: CallOptions['tools'] = [];
      const model = new MockLanguageModelV3({
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
      const model = new MockLanguageModelV3({
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
