/**
 * Which 2025 POSTs get a resumable stream from their start (sessions/priming.ts), and the two
 * members of the SDK's transport that sessions/transport.ts wraps to prime only those: a new SDK
 * that renamed them would otherwise prime every stream again, or none.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { LongCall } from '../../../../../src/mcp/define-tool.js';
import { outlivesConnection } from '../../../../../src/mcp/http/sessions/priming.js';

const long = new Map<string, LongCall>([
  ['video_generate', 'job'],
  ['chat', 'progress'],
]);
const call = (name: string, progressToken?: string | number, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...(progressToken !== undefined ? { _meta: { progressToken } } : {}) },
});

describe('outlivesConnection', () => {
  it('primes a call of a tool that waits on a job, with or without a progress token', () => {
    expect(outlivesConnection(call('video_generate'), long)).toBe(true);
    expect(outlivesConnection(call('video_generate', 'p'), long)).toBe(true);
  });

  it('primes a call of a tool that reports progress only when the client asked for progress', () => {
    expect(outlivesConnection(call('chat'), long)).toBe(false);
    expect(outlivesConnection(call('chat', 0), long)).toBe(true);
  });

  it('answers every other request plainly: short tools, other methods, notifications, odd bodies', () => {
    expect(outlivesConnection(call('auth_status', 'p'), long)).toBe(false);
    expect(outlivesConnection({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, long)).toBe(false);
    expect(outlivesConnection({ jsonrpc: '2.0', method: 'notifications/initialized' }, long)).toBe(false);
    for (const body of [
      undefined,
      null,
      5,
      'x',
      { method: 'tools/call' },
      { method: 'tools/call', params: 1 },
    ])
      expect(outlivesConnection(body, long)).toBe(false);
  });

  it('primes a batch that holds one call that can outlive the connection', () => {
    expect(
      outlivesConnection([call('auth_status', undefined, 1), call('video_generate', undefined, 2)], long),
    ).toBe(true);
    expect(outlivesConnection([call('auth_status', undefined, 1), call('chat', undefined, 2)], long)).toBe(
      false,
    );
  });
});

describe("the SDK transport's members primeOnly wraps", () => {
  it('still has its priming method and its request-to-stream map', () => {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'id' });
    const internals = transport as unknown as Record<string, unknown>;
    expect(typeof internals.writePrimingEvent).toBe('function');
    expect(internals._requestToStreamMapping).toBeInstanceOf(Map);
  });
});
