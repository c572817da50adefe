/**
 * The OpenAI Agents SDK (`@openai/agents`, Node 22; it negotiates the revision itself with the v2
 * client's `auto` mode, so 2026-07-28 against this server). Tools become FunctionTools, once as
 * they are by default and once with `convertSchemasToStrict` (OpenAI strict mode), and calls go
 * through FunctionTool.invoke as the agent runner does.
 */
import { getAllMcpTools, MCPServerStdio, MCPServerStreamableHttp, RunContext } from '@openai/agents';
import { fromCallToolResult, type Session } from '../lib/session.js';
import type { WorkerInput } from '../lib/types.js';
import { packageVersion } from './version.js';

export async function open(input: WorkerInput): Promise<Session> {
  const server =
    input.case.transport === 'stdio'
      ? new MCPServerStdio({ name: 'orbit', ...input.server })
      : new MCPServerStreamableHttp({ name: 'orbit', url: input.url! });
  await server.connect();
  const functionTools = async (convertSchemasToStrict: boolean) =>
    (await getAllMcpTools({ mcpServers: [server], convertSchemasToStrict })).flatMap((tool) =>
      tool.type === 'function' ? [tool] : [],
    );
  const tools = await functionTools(false);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  return {
    version: packageVersion('@openai/agents'),
    noProgress: 'the Agents SDK MCP client has no progress callback',
    async tools() {
      return tools.map((tool) => ({ name: tool.name, parameters: tool.parameters }));
    },
    async strictTools() {
      return (await functionTools(true)).map((tool) => ({
        name: tool.name,
        parameters: tool.parameters,
        strict: tool.strict,
      }));
    },
    async call(name, args) {
      const tool = byName.get(name);
      if (!tool) throw new Error(`no FunctionTool ${name}`);
      const output = await tool.invoke(new RunContext(), JSON.stringify(args));
      const called = fromCallToolResult({ content: Array.isArray(output) ? output : [output] });
      // The runner hands the model only the content; an isError result reads "Error (code): ...".
      return { ...called, isError: called.isError || /^Error \(/.test(called.text) };
    },
    close: () => server.close(),
  };
}
