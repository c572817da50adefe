/**
 * Watches what a client sends, to report the protocol revision it really spoke: a loopback
 * proxy in front of the HTTP endpoint, or the log of lib/stdio-tap.mjs for stdio.
 */
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRecord } from './session.js';

const MODERN_META = 'io.modelcontextprotocol/protocolVersion';

interface Sent {
  method: string;
  /** `initialize` params.protocolVersion */
  initialize?: string;
  /** the per-request `_meta` protocol version (2026-07-28 and later) */
  meta?: string;
}

export class Wire {
  readonly sent: Sent[] = [];

  /** Parses one client->server body or line (a message or a batch); anything else is ignored. */
  record(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      if (!isRecord(message) || typeof message.method !== 'string') continue;
      const params = isRecord(message.params) ? message.params : {};
      const meta = isRecord(params._meta) ? params._meta[MODERN_META] : undefined;
      this.sent.push({
        method: message.method,
        ...(message.method === 'initialize' && typeof params.protocolVersion === 'string'
          ? { initialize: params.protocolVersion }
          : {}),
        ...(typeof meta === 'string' ? { meta } : {}),
      });
    }
  }

  recordFile(path: string): void {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) if (line.trim()) this.record(line);
  }

  /** The revision tools/call went out under: its `_meta` version, else the initialize handshake's. */
  era(): string | undefined {
    const call = this.sent.find((message) => message.method === 'tools/call');
    if (call?.meta) return call.meta;
    return this.sent.find((message) => message.initialize)?.initialize;
  }
}

/** A loopback proxy to `upstream` that records every request body; responses (SSE too) stream through. */
export async function httpTap(upstream: string, wire: Wire): Promise<{ url: string; close(): void }> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.length) wire.record(body.toString('utf8'));
      const forward = request(
        {
          hostname: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      // A client that hangs up (the 2026 way to cancel) hangs up on the server too.
      res.on('close', () => forward.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
