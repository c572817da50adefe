/**
 * The throughput baseline: the same one-tool server over Streamable HTTP with stateful sessions,
 * on node:http like orbit-mcp. Prints `listening at <url>` on stderr, as orbit-mcp does.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createEchoServer } from './echo.js';

const transports = new Map<string, StreamableHTTPServerTransport>();

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

const http = createServer((req, res) => {
  (async () => {
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? transports.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (!isInitializeRequest(body)) {
      res.writeHead(400).end();
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        transports.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await createEchoServer().connect(transport);
    return transport.handleRequest(req, res, body);
  })().catch(() => {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});

const port = Number(process.argv[2] ?? 0);
http.listen(port, '127.0.0.1', () => {
  const { port: bound } = http.address() as AddressInfo;
  process.stderr.write(`listening at http://127.0.0.1:${bound}/mcp\n`);
});
process.once('SIGTERM', () => {
  http.closeAllConnections();
  http.close(() => process.exit(0));
});
