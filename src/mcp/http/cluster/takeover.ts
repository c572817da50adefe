import {
  InMemoryTransport,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type Server,
} from '@modelcontextprotocol/server';
import type { Logger } from '../../../log.js';
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

/** `video_status with run_id "abc"` → the tool and its one argument. */
const NEXT_CALL = /^([a-z0-9_]+) with ([a-z0-9_]+) "([^"]+)"$/;
const HANDSHAKE_ID = 'orbit-takeover-initialize';

/**
 * Continues, on this replica, a 2025 tools/call whose replica stopped: the call that continues its
 * job (`video_status`, `job_status`… as the job record names it) runs here under the original
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
    const next = record.job ? NEXT_CALL.exec(record.job.next) : null;
    if (!next) {
      await emit(interrupted(record));
      return;
    }
    const [, tool, argument, value] = next;
    const budgetMs = (record.maxWaitS ?? 50) * 1000 - (Date.now() - record.startedAt);
    const args = { [argument!]: value!, max_wait_s: Math.max(0, Math.floor(budgetMs / 1000)) };
    deps.log.info(`continuing ${record.tool} of a stopped replica with ${tool}`, { job: record.job?.id });
    await run(deps.server, init, record, { name: tool!, arguments: args }, lastProgress, emit);
  } finally {
    await release();
  }
}

/** Runs one tools/call on the server through an in-process transport; its messages go to `emit`. */
async function run(
  server: Server,
  init: InitParams,
  record: CallRecord,
  params: { name: string; arguments: Record<string, unknown> },
  lastProgress: number | undefined,
  emit: (message: JSONRPCMessage) => Promise<unknown>,
): Promise<void> {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const monotonic = progressAfter(lastProgress);
  let initialized!: () => void;
  const handshake = new Promise<void>((resolve) => {
    initialized = resolve;
  });
  const answered = new Promise<void>((resolve) => {
    client.onmessage = (message) => {
      if ('id' in message && message.id === HANDSHAKE_ID) return initialized();
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
    const meta = record.progressToken === undefined ? {} : { _meta: { progressToken: record.progressToken } };
    await client.send({
      jsonrpc: '2.0',
      id: record.request,
      method: 'tools/call',
      params: { ...params, ...meta },
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

function interrupted(record: CallRecord): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id: record.request,
    result: {
      isError: true,
      content: [
        {
          type: 'text',
          text: `Error (interrupted): the server replica running ${record.tool} stopped before the call recorded a job to continue. Call ${record.tool} again; for paid media, video_recent lists runs already submitted.`,
        },
      ],
    },
  };
}
