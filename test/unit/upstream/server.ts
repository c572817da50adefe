/**
 * A real node:http server on a free port, scripted per test: each request is recorded and handed
 * to the next handler in the script (the last one repeats).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void;

export interface ScriptedServer {
  baseUrl: string;
  requests: SeenRequest[];
  script(...handlers: Handler[]): void;
  close(): Promise<void>;
}

export async function startServer(): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let handlers: Handler[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const handler = handlers[Math.min(requests.length, handlers.length - 1)];
      requests.push(seen);
      if (handler) handler(req, res, seen);
      else json(500, { error: { message: 'no handler scripted' } })(req, res, seen);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    script(...next) {
      handlers = next;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Replies with a JSON body. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** Replies with a raw text body. */
export function text(status: number, body: string, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };
}

/** Never answers (the socket is destroyed when the server closes). */
export const silent: Handler = () => {};
