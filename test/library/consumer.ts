// Compiled against the published types by test/e2e/binary/library.test.ts (not by the project's tsc).

import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createOrbitServer, type OrbitServerOptions } from 'orbit-mcp';

const options: OrbitServerOptions = { sandbox: true, toolsets: ['text', 'models'], env: false };
const orbit = await createOrbitServer(options);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await orbit.connect(serverSide);
const client = new Client({ name: 'consumer', version: '1.0.0' });
await client.connect(clientSide);
const { tools } = await client.listTools();
const result = await client.callTool({
  name: 'chat',
  arguments: { model: 'openai/gpt-sandbox', prompt: 'hello from a library user' },
});
process.stdout.write(
  `${JSON.stringify({ target: orbit.target.kind, tools: tools.map((t) => t.name), result: result.structuredContent })}\n`,
);
await client.close();
await orbit.close();
