/**
 * What `chat` reports while an answer streams in, per network read: the real HTTP client reads a
 * stream from a local server that sends each part only once the report of the previous one has
 * arrived, so every write is one read, whatever the machine's speed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/context.js';
import { StaticCredentials } from '../../../src/credentials.js';
import { createLogger } from '../../../src/log.js';
import { HttpClient } from '../../../src/upstream/client.js';
import chat from '../../../tools/text/chat.js';

const chunk = (content: string, finish?: string) =>
  `data: ${JSON.stringify({ model: 'm', choices: [{ delta: { content }, finish_reason: finish ?? null }] })}\n\n`;
const DONE = 'data: [DONE]\n\n';

/** The parts of the next reply, one write each; a part waits for the report of the one before. */
let parts: string[] = [];
let reported: () => Promise<void> = async () => {};
let server: Server;
let client: HttpClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_progress' });
      for (const [i, part] of parts.entries()) {
        if (i > 0) await reported();
        res.write(part);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new HttpClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    timeoutMs: 5_000,
    userAgent: 'chat-progress-test',
    retry: { maxRetries: 0 },
  });
});
afterAll(async () => {
  await client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** `chat` over a stream sent in these parts: what it reports as progress, and its answer. */
async function reportsFor(sent: string[]): Promise<{ reports: string[]; text: string }> {
  parts = sent;
  const reports: string[] = [];
  let next: () => void = () => {};
  reported = () => new Promise<void>((resolve) => (next = resolve));
  const signal = new AbortController().signal;
  const ctx = {
    api: client.api({
      credentials: new StaticCredentials([{ kind: 'api_key', value: 'sk-test-progress0001', source: 'env' }]),
      signal,
      log: createLogger('silent'),
    }),
    signal,
    progress: {
      report: (message: string) => {
        reports.push(message);
        next();
      },
    },
  } satisfies Pick<ToolContext, 'api' | 'progress' | 'signal'>;
  const out = await chat.run(chat.input.parse({ model: 'm', prompt: 'hi' }), ctx as ToolContext);
  return { reports, text: (out as { text: string }).text };
}

describe('chat progress', () => {
  it('reports the answer once per network read, but not the read that ends the stream', async () => {
    const { reports, text } = await reportsFor([
      chunk('Hel') + chunk('lo'),
      chunk(', wor'),
      chunk('ld', 'stop') + DONE,
    ]);
    expect(reports).toEqual(['Hello', 'Hello, wor']);
    expect(text).toBe('Hello, world');
  });

  it('reports nothing when the whole answer comes in one read', async () => {
    const { reports, text } = await reportsFor([chunk('All') + chunk(' at once', 'stop') + DONE]);
    expect(reports).toEqual([]);
    expect(text).toBe('All at once');
  });
});
