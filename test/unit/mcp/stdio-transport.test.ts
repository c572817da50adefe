import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { StdioLineTransport } from '../../../src/mcp/stdio-transport.js';

/** A transport on in-memory pipes, with what it delivered and what it wrote. */
async function pipes(maxBytes = 1024) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioLineTransport(input, output, maxBytes);
  const received: JSONRPCMessage[] = [];
  const written: unknown[] = [];
  transport.onmessage = (message) => received.push(message);
  output.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) written.push(JSON.parse(line));
  });
  await transport.start();
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { input, transport, received, written, settle };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

describe('StdioLineTransport', () => {
  it('joins a message split over many chunks and splits messages sharing one chunk', async () => {
    const { input, received, settle } = await pipes();
    const text = `${ping(1)}\n${ping(2)}\r\n`;
    for (const char of text.slice(0, 10)) input.write(char);
    input.write(text.slice(10));
    await settle();
    expect(received).toEqual([JSON.parse(ping(1)), JSON.parse(ping(2))]);
  });

  it('answers a message over the limit with an error for its id, then carries on', async () => {
    const { input, received, written, settle } = await pipes(200);
    // SDK clients put the id last; other clients first.
    const pad = 'x'.repeat(500);
    input.write(`{"method":"tools/call","params":{"pad":"${pad}"},"jsonrpc":"2.0","id":7}\n`);
    input.write(`{"jsonrpc":"2.0","id":"s-8","method":"tools/call","params":{"pad":"${pad}"}}\n`);
    input.write(`${ping(9)}\n`);
    await settle();
    expect(written).toMatchObject([
      {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32600, message: expect.stringMatching(/limit of 1 MB.*file path or an https URL/) },
      },
      { id: 's-8', error: { code: -32600 } },
    ]);
    expect(received).toEqual([JSON.parse(ping(9))]);
  });

  it('answers a line that is not JSON-RPC with a parse error and keeps reading', async () => {
    const { input, received, written, settle } = await pipes();
    input.write(`not json\n${ping(3)}\n`);
    await settle();
    expect(written).toMatchObject([{ id: null, error: { code: -32700 } }]);
    expect(received).toEqual([JSON.parse(ping(3))]);
  });

  it('closes when its input ends', async () => {
    const { input, transport } = await pipes();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    input.end();
    await closed;
  });
});
