import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Drain } from '../../../../../src/mcp/http/endpoint/drain.js';

/** A response as the drain sees it: it can be ended, and closes. */
function response() {
  const res = Object.assign(new EventEmitter(), {
    ended: false,
    status: 0,
    headers: {} as Record<string, string>,
    end() {
      res.ended = true;
      res.emit('close');
      return res;
    },
    setHeader(name: string, value: string) {
      res.headers[name] = value;
    },
    writeHead(status: number) {
      res.status = status;
      return res;
    },
  });
  return res;
}
const asRes = (res: ReturnType<typeof response>) => res as unknown as ServerResponse;
const request = (method: string) => ({ method }) as IncomingMessage;

describe('Drain', () => {
  it('waits for running calls, closes listening streams at once, and refuses new requests with 503 and Retry-After', async () => {
    const drain = new Drain();
    const call = response();
    const listening = response();
    drain.track(request('POST'), asRes(call));
    drain.track(request('GET'), asRes(listening));
    let handedBack = false;
    const done = drain.drain({ deadlineMs: 5_000, handBack: () => (handedBack = true) });
    expect(drain.draining).toBe(true);
    expect(listening.ended).toBe(true);
    const late = response();
    drain.refuse(asRes(late));
    expect(late.status).toBe(503);
    expect(late.headers['retry-after']).toBe('1');
    call.emit('close');
    expect(await done).toEqual({ finished: true, handedOver: 0 });
    expect(handedBack).toBe(false);
  });

  it('at the deadline hands calls over (shared store) and jobs back, then waits a grace for their answers', async () => {
    const drain = new Drain();
    const call = response();
    drain.track(request('POST'), asRes(call));
    const steps: string[] = [];
    const outcome = await drain.drain({
      deadlineMs: 20,
      graceMs: 1_000,
      handOver: async () => {
        steps.push('hand over');
        return 1;
      },
      handBack: () => {
        steps.push('hand back');
        setTimeout(() => call.emit('close'), 5);
      },
    });
    expect(steps).toEqual(['hand over', 'hand back']);
    expect(outcome).toEqual({ finished: false, handedOver: 1 });
  });
});
