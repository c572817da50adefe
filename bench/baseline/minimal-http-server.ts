/**
 * The throughput baseline: the same one-tool server over Streamable HTTP for both protocol eras,
 * as the SDK documents it: 2026-07-28 requests to a strict `createMcpHandler`, 2025 clients to
 * sessions (routed with `isLegacyRequest`), on node:http like orbit-mcp. Prints
 * `listening at <url>` on stderr, as orbit-mcp does.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest } from '@modelcontextprotocol/server';
import { createEchoServer } from './echo.js';

const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
const modern = toNodeHandler(createMcpHandler(() => createEchoServer(), { legacy: 'reject' }));

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

const http = createServer((req, res) => {
  (async () => {
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (req.method === 'POST' && !(await isLegacyRequest(await toWebRequest(req, body), body)))
      return modern(req, res, body);
    if (!isInitializeRequest(body)) {
      res.writeHead(400).end();
      return;
    }
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
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
