import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../../../../src/mcp/http/auth/client-address.js';

const request = (forwardedFor?: string) =>
  ({
    socket: { remoteAddress: '10.0.0.9' },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  it('is the socket peer without trusted proxies, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('203.0.113.1'), 0)).toBe('10.0.0.9');
  });

  it('is the n-th X-Forwarded-For entry from the right behind n trusted proxies', () => {
    expect(clientAddress(request('1.1.1.1, 203.0.113.1, 10.0.0.2'), 1)).toBe('10.0.0.2');
    expect(clientAddress(request('1.1.1.1, 203.0.113.1, 10.0.0.2'), 2)).toBe('203.0.113.1');
  });

  it('falls back to the socket peer when the header has fewer entries or none', () => {
    expect(clientAddress(request('203.0.113.1'), 2)).toBe('10.0.0.9');
    expect(clientAddress(request(), 1)).toBe('10.0.0.9');
    expect(clientAddress(request(' '), 1)).toBe('10.0.0.9');
  });
});
