/**
 * A small round-robin HTTP proxy, as a load balancer in front of replicas does it: each request
 * goes to the next replica; a replica that refuses the connection (stopped) or answers 503 while
 * draining is skipped and the request goes to the next one; streams are forwarded as they come,
 * and a replica that dies mid-stream cuts the client's stream, as a real balancer would.
 */
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Forwarded {
  method: string;
  session?: string;
  /** Index of the replica that answered. */
  replica: number;
  status: number;
  /** The JSON-RPC method of a POST, when it had one. */
  rpc?: string;
}

export interface RoundRobin {
  url: string;
  /** Every request forwarded, in order. */
  log: Forwarded[];
  close(): Promise<void>;
}

const RETRYABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

export async function startProxy(ports: readonly number[]): Promise<RoundRobin> {
  let next = 0;
  const log: Forwarded[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const rpc = rpcOf(body);
    const start = next++;
    for (let attempt = 0; attempt < ports.length; attempt++) {
      const replica = (start + attempt) % ports.length;
      const outcome = await forward(replica);
      if (outcome === 'next') continue;
      return;
    }
    res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"no replica answered"}');

    function forward(replica: number): Promise<'done' | 'next'> {
      return new Promise((resolve) => {
        const port = ports[replica]!;
        const headers: IncomingHttpHeaders = { ...req.headers, host: `127.0.0.1:${port}` };
        const upstream = request(
          { host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent: false },
          (answer) => {
            const status = answer.statusCode ?? 502;
            if (status === 503 && answer.headers['retry-after']) {
              // Draining: the request was not taken; another replica gets it.
              answer.resume();
              return resolve('next');
            }
            log.push({
              method: req.method ?? 'GET',
              session: header(req.headers['mcp-session-id']),
              replica,
              status,
              rpc,
            });
            res.writeHead(status, answer.headers);
            res.flushHeaders();
            answer.on('data', (chunk: Buffer) => res.write(chunk));
            answer.once('end', () => res.end());
            // The replica went away mid-answer: the client's stream breaks too.
            answer.once('aborted', () => res.destroy());
            answer.once('error', () => res.destroy());
            res.once('close', () => {
              if (!res.writableFinished) upstream.destroy();
            });
            resolve('done');
          },
        );
        upstream.once('error', (error: NodeJS.ErrnoException) => {
          if (!res.headersSent && RETRYABLE.has(error.code ?? '')) return resolve('next');
          res.destroy();
          resolve('done');
        });
        upstream.end(body);
      });
    }
  });
  // Streams may stay open a long time.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function rpcOf(body: Buffer): string | undefined {
  if (body.length === 0) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && 'method' in parsed
      ? String(parsed.method)
      : undefined;
  } catch {
    return undefined;
  }
}
