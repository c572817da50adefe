import {
  InMemoryTransport,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type Server,
} from '@modelcontextprotocol/server';
import { InterruptedError } from '../../../errors.js';
import type { Logger } from '../../../log.js';
import type { NextCall } from '../../../next-call.js';
import { createRedactor } from '../../../secrets.js';
import { renderError } from '../../render.js';
import type { CallRecord, CallTracker } from './calls.js';
import type { InitParams } from './directory.js';
import type { SharedEventStore } from './event-store-shared.js';

export interface TakeoverDeps {
  /** A server for the call's tenant, with the credentials of the request that resumed the stream. */
  server: Server;
  events: SharedEventStore;
  calls: CallTracker;
  log: Logger;
}

const HANDSHAKE_ID = 'orbit-takeover-initialize';
const LIST_ID = 'orbit-takeover-tools';

/**
 * Continues, on this replica, a 2025 tools/call whose replica stopped: the call that continues its
 * job (`next` of the job record: `video_status`, `evals_read`…, with its arguments) runs here under the original
 * request id and progress token, and its progress and result go to the original stream, so the
 * client that resumed with Last-Event-ID gets them as if nothing happened. A call that had not
 * recorded a job gets an error result saying so. This replica holds the call's lease throughout.
 */
export async function takeOver(
  record: CallRecord,
  init: InitParams,
  lastProgress: number | undefined,
  deps: TakeoverDeps,
): Promise<void> {
  const stream = record.stream;
  if (stream === undefined) return;
  const release = deps.calls.hold(record);
  const emit = (message: JSONRPCMessage) => deps.events.storeEvent(stream, message);
  try {
    const next = record.job?.next;
    if (!next) {
      await emit(interrupted(record));
      return;
    }
    const leftMs = (record.maxWaitS ?? 50) * 1000 - (Date.now() - record.startedAt);
    const waitS = Math.max(0, Math.floor(leftMs / 1000));
    deps.log.info(`continuing ${record.tool} of a stopped replica with ${next.tool}`, {
      job: record.job?.id,
    });
    await run(deps.server, init, record, next, waitS, lastProgress, emit);
  } finally {
    await release();
  }
}

/**
 * Runs `next` on the server through an in-process transport; its messages go to `emit`. A tool that
 * waits (it takes `max_wait_s`) waits what is left of the caller's `max_wait_s`.
 */
async function run(
  server: Server,
  init: InitParams,
  record: CallRecord,
  next: NextCall,
  waitS: number,
  lastProgress: number | undefined,
  emit: (message: JSONRPCMessage) => Promise<unknown>,
): Promise<void> {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const monotonic = progressAfter(lastProgress);
  let initialized!: () => void;
  const handshake = new Promise<void>((resolve) => {
    initialized = resolve;
  });
  let listed!: (message: JSONRPCMessage) => void;
  const tools = new Promise<JSONRPCMessage>((resolve) => {
    listed = resolve;
  });
  const answered = new Promise<void>((resolve) => {
    client.onmessage = (message) => {
      if ('id' in message && message.id === HANDSHAKE_ID) return initialized();
      if ('id' in message && message.id === LIST_ID) return listed(message);
      if ('method' in message && message.method === 'notifications/progress') {
        emit(monotonic(message)).catch(() => {});
        return;
      }
      if (
        (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) &&
        message.id === record.request
      ) {
        emit(message).then(
          () => resolve(),
          () => resolve(),
        );
      }
    };
  });
  await server.connect(serverSide);
  try {
    await client.start();
    await client.send({ jsonrpc: '2.0', id: HANDSHAKE_ID, method: 'initialize', params: init });
    await handshake;
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await client.send({ jsonrpc: '2.0', id: LIST_ID, method: 'tools/list' });
    const args = takesWait(await tools, next.tool)
      ? { ...next.arguments, max_wait_s: waitS }
      : next.arguments;
    const meta = record.progressToken === undefined ? {} : { _meta: { progressToken: record.progressToken } };
    await client.send({
      jsonrpc: '2.0',
      id: record.request,
      method: 'tools/call',
      params: { name: next.tool, arguments: args, ...meta },
    });
    await answered;
  } finally {
    await client.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

/** Progress values keep rising across replicas: the client saw `last` from the one that stopped. */
function progressAfter(last: number | undefined) {
  let floor = last ?? 0;
  return (message: JSONRPCMessage): JSONRPCMessage => {
    if (!('params' in message) || !message.params || typeof message.params.progress !== 'number')
      return message;
    const { total, ...params } = message.params;
    const progress = message.params.progress > floor ? message.params.progress : floor + 0.001;
    floor = progress;
    const keepTotal = typeof total === 'number' && progress <= total;
    return { ...message, params: { ...params, progress, ...(keepTotal ? { total } : {}) } };
  };
}

/** True when `tool`, as the server lists it, takes `max_wait_s`. */
function takesWait(list: JSONRPCMessage, tool: string): boolean {
  if (!isJSONRPCResultResponse(list)) return false;
  const found = (
    list.result.tools as { name: string; inputSchema?: { properties?: object } }[] | undefined
  )?.find((t) => t.name === tool);
  return Boolean(found?.inputSchema?.properties && 'max_wait_s' in found.inputSchema.properties);
}

function interrupted(record: CallRecord): JSONRPCMessage {
  const error = new InterruptedError(
    `the server replica running ${record.tool} stopped before the call recorded a job to continue.`,
    { fix: `Call ${record.tool} again; for paid media, video_recent lists runs already submitted.` },
  );
  // No secret is in it: the record holds fingerprints only.
  return { jsonrpc: '2.0', id: record.request, result: renderError(error, createRedactor()) };
}
