import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { describeBody, requestLogger } from '../../../../../src/mcp/http/endpoint/log.js';

const TOOLS = new Set(['chat', 'video_generate']);
const KEY = 'sk-orbit-sbx-0123456789abcdef0123';

function exchange() {
  const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true });
  const req = { method: 'POST', url: '/mcp?toolsets=media' } as IncomingMessage;
  return { req, res, asRes: res as unknown as ServerResponse };
}

describe('request log', () => {
  it('writes one JSON line per request: replica, tenant prefix, method, tool, status, duration', () => {
    const lines: string[] = [];
    const log = requestLogger({ replica: 'replica-1', tools: TOOLS, write: (line) => lines.push(line) });
    const { req, res, asRes } = exchange();
    const facts = log(req, asRes);
    Object.assign(
      facts,
      { tenant: 'abcdef012345', secrets: [KEY] },
      describeBody(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'chat', arguments: { prompt: KEY } } },
        TOOLS,
      ),
    );
    res.emit('close');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      msg: 'http request',
      replica: 'replica-1',
      method: 'POST',
      path: '/mcp',
      rpc: 'tools/call',
      tool: 'chat',
      tenant: 'abcdef012345',
      status: 200,
      ms: expect.any(Number),
    });
  });

  it('never writes a key, even one a client sends as a tool or method name', () => {
    expect(
      describeBody({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: KEY } }, TOOLS),
    ).toEqual({
      rpc: 'tools/call',
      tool: 'unknown',
    });
    expect(describeBody({ jsonrpc: '2.0', id: 1, method: KEY }, TOOLS)).toEqual({ rpc: 'unknown' });
    const lines: string[] = [];
    const log = requestLogger({ replica: KEY, tools: TOOLS, write: (line) => lines.push(line) });
    const { req, res, asRes } = exchange();
    Object.assign(log(req, asRes), { secrets: [KEY] });
    res.emit('close');
    expect(lines.join('\n')).not.toContain(KEY);
  });
});
