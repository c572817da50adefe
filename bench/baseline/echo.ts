import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** One tool, one zod schema: the floor any SDK server pays. */
export function createEchoServer(): McpServer {
  const server = new McpServer({ name: 'minimal', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the text it is given.', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}
