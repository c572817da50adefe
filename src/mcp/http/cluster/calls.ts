import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { JobPatch } from '../../../jobs/store.js';
import { isRecord } from '../../../lang.js';
import type { Logger } from '../../../log.js';
import { NextCall } from '../../../next-call.js';
import { type Store, storeKey } from '../../../store/store.js';
import type { EventHooks, StoredEvent } from './event-store-shared.js';

/**
 * What any replica needs to continue a 2025 tools/call whose replica stopped: where its events go,
 * who asked (fingerprints only), and the job it follows. Never a key: a replica that takes the
 * call over uses the credentials of the request that resumes it.
 */
export const CallRecord = z.object({
  session: z.string(),
  request: z.union([z.string(), z.number()]),
  tool: z.string(),
  /** The stream its events go to (set by its first event). */
  stream: z.string().optional(),
  progressToken: z.union([z.string(), z.number()]).optional(),
  /** The job it follows and the call that continues it (a record written before it was data: none). */
  job: z.object({ id: z.string(), next: NextCall }).optional().catch(undefined),
  /** `max_wait_s` of the call, so a replica that continues it keeps to the caller's time. */
  maxWaitS: z.number().optional(),
  startedAt: z.number(),
  replica: z.string(),
});
export type CallRecord = z.infer<typeof CallRecord>;

/** The SDK's id of a session's GET stream (see resume.ts). */
const STANDALONE_STREAM = '_GET_stream';

/** Waits end within ten minutes (src/jobs/follow.ts); a call running past this lost its result. */
const MAX_CALL_MS = 15 * 60_000;

/** A call running on this replica. */
interface LiveCall {
  record: CallRecord;
  /** The HTTP response its stream goes out on (cut when the call is handed over). */
  res?: ServerResponse;
  heartbeat?: NodeJS.Timeout;
  /** Handed to another replica: nothing more is sent from here. */
  detached: boolean;
}

/** What one HTTP request of a session carries through the SDK to the event store and the tools. */
interface Scope {
  session: string;
  res: ServerResponse;
  /** The stream the SDK opened for this POST (learnt from its priming event). */
  stream?: string;
  call?: LiveCall;
}

export interface CallOptions {
  store: Store;
  replica: string;
  /** A lease lasts this long without a heartbeat; heartbeats come every third of it. */
  leaseMs: number;
  /** Records last as long as a session may stay idle. */
  ttlMs: number;
  log: Logger;
}

/**
 * The 2025 tools/calls running on this replica, in the shared store: each holds a lease renewed by
 * a heartbeat, so exactly one replica follows a call at a time. When a replica dies (SIGKILL)
 * its leases lapse and the replica serving the client's resumed stream takes the call over; when
 * it drains (SIGTERM) it hands calls that follow a job to the others at once.
 */
export class CallTracker {
  private readonly scope = new AsyncLocalStorage<Scope>();
  private readonly live = new Map<string, LiveCall>();

  constructor(private readonly options: CallOptions) {}

  /** Runs the handling of one HTTP request of `session` in its scope. */
  within<T>(session: string, res: ServerResponse, run: () => T): T {
    return this.scope.run({ session, res }, run);
  }

  /** Wraps a session transport's delivery: each tools/call request becomes a tracked call. */
  track<Extra>(deliver: (message: JSONRPCMessage, extra?: Extra) => void) {
    return (message: JSONRPCMessage, extra?: Extra) => {
      const scope = this.scope.getStore();
      if (scope && isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        // A cancelled call sends no result: it ends here, and nobody is to continue it.
        const request = message.params?.requestId;
        const call = isRequestId(request) ? this.live.get(this.liveKey(scope.session, request)) : undefined;
        if (call) this.end(call);
      }
      if (!scope || !isJSONRPCRequest(message) || message.method !== 'tools/call')
        return deliver(message, extra);
      const call = this.start(scope, message.id, message.params);
      return this.scope.run({ ...scope, call }, () => deliver(message, extra));
    };
  }

  /** What the session's event store tells this tracker, and what it lets through. */
  hooksFor(session: string): EventHooks {
    return {
      accept: (stream) => {
        const call = this.scope.getStore()?.call;
        return !(call?.detached && call.record.stream === stream) && !this.detachedStream(session, stream);
      },
      stored: (event) => this.stored(session, event),
    };
  }

  /** A job recorded by the call `request` of `session`: a replica that continues the call follows it. */
  jobRecorded(session: string, request: RequestId, patch: JobPatch): void {
    const call = this.live.get(this.liveKey(session, request));
    if (!call || !patch.next || call.record.job?.id === patch.id) return;
    call.record.job = { id: patch.id, next: patch.next };
    this.save(call);
  }

  /** True when this replica runs the call of `stream` (the SDK then resumes it itself). */
  runsHere(session: string, stream: string): boolean {
    for (const call of this.live.values())
      if (call.record.session === session && call.record.stream === stream && !call.detached) return true;
    return false;
  }

  /** The call whose events go to `stream`, wherever it runs. */
  async byStream(session: string, stream: string): Promise<CallRecord | undefined> {
    const request = await this.options.store.get(storeKey('call-stream', session, stream));
    if (!request) return undefined;
    const text = await this.options.store.get(storeKey('call', session, request));
    if (!text) return undefined;
    const parsed = CallRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  }

  leaseKey(record: Pick<CallRecord, 'session' | 'request'>): string {
    return storeKey('call-lease', record.session, JSON.stringify(record.request));
  }

  /** Takes the lease of a call whose replica stopped renewing it; true when this replica now holds it. */
  claim(record: CallRecord): Promise<boolean> {
    return this.options.store.claim(this.leaseKey(record), this.options.replica, this.options.leaseMs);
  }

  /** Keeps a lease this replica holds until `stop` is called. */
  hold(record: CallRecord): () => Promise<void> {
    const timer = setInterval(() => {
      this.options.store
        .renew(this.leaseKey(record), this.options.replica, this.options.leaseMs)
        .catch((error: unknown) =>
          this.options.log.warning(`could not renew a call lease: ${String(error)}`),
        );
    }, this.options.leaseMs / 3);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await this.finish(record);
    };
  }

  /**
   * Draining: every call here that follows a job goes to the other replicas now. Its lease is
   * released, its stream cut (the client resumes it elsewhere with Last-Event-ID), and nothing it
   * sends from here on goes out. Returns how many calls were handed over.
   */
  async handOver(): Promise<number> {
    const calls = [...this.live.values()].filter((call) => call.record.job && !call.detached);
    for (const call of calls) {
      call.detached = true;
      clearInterval(call.heartbeat);
      await this.options.store.release(this.leaseKey(call.record), this.options.replica).catch(() => {});
      call.res?.destroy();
    }
    return calls.length;
  }

  /** The session closed on this replica: its calls here stop (they are not continued elsewhere either). */
  sessionClosed(session: string): void {
    for (const call of [...this.live.values()])
      if (call.record.session === session && !call.detached) this.end(call);
  }

  /** Calls running here now. */
  get size(): number {
    return this.live.size;
  }

  private start(scope: Scope, request: RequestId, params: unknown): LiveCall {
    const args = isRecord(params) && isRecord(params.arguments) ? params.arguments : {};
    const meta = isRecord(params) && isRecord(params._meta) ? params._meta : {};
    const progressToken = meta.progressToken;
    const record: CallRecord = {
      session: scope.session,
      request,
      tool: isRecord(params) && typeof params.name === 'string' ? params.name : 'unknown',
      stream: scope.stream,
      ...(typeof progressToken === 'string' || typeof progressToken === 'number' ? { progressToken } : {}),
      ...(typeof args.max_wait_s === 'number' ? { maxWaitS: args.max_wait_s } : {}),
      startedAt: Date.now(),
      replica: this.options.replica,
    };
    const call: LiveCall = { record, res: scope.res, detached: false };
    this.live.set(this.liveKey(scope.session, request), call);
    // A new call: nobody else holds its lease, so it is set, not claimed.
    this.options.store
      .set(this.leaseKey(record), this.options.replica, this.options.leaseMs)
      .catch((error: unknown) => this.options.log.warning(`could not take a call lease: ${String(error)}`));
    this.save(call);
    call.heartbeat = setInterval(() => {
      // No call waits longer than this; one still here is a call whose result never came.
      if (Date.now() - record.startedAt > MAX_CALL_MS) return this.end(call);
      this.options.store
        .renew(this.leaseKey(record), this.options.replica, this.options.leaseMs)
        .catch(() => {});
    }, this.options.leaseMs / 3);
    call.heartbeat.unref();
    return call;
  }

  private stored(session: string, event: StoredEvent): void {
    // The listening stream carries the server's requests to the client, never a call's own events.
    if (event.stream === STANDALONE_STREAM) return;
    const scope = this.scope.getStore();
    if (scope && scope.session === session && scope.stream === undefined && !scope.call)
      scope.stream = event.stream;
    const call = scope?.call;
    if (call && call.record.stream === undefined) {
      call.record.stream = event.stream;
      this.save(call);
    }
    const message = event.message;
    if (
      message &&
      (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) &&
      message.id !== undefined
    ) {
      const done = this.live.get(this.liveKey(session, message.id));
      if (done && done.record.stream === event.stream) this.end(done);
    }
  }

  private detachedStream(session: string, stream: string): boolean {
    for (const call of this.live.values())
      if (call.detached && call.record.session === session && call.record.stream === stream) return true;
    return false;
  }

  private end(call: LiveCall): void {
    clearInterval(call.heartbeat);
    this.live.delete(this.liveKey(call.record.session, call.record.request));
    if (!call.detached) this.finish(call.record).catch(() => {});
  }

  /** The call answered: its record and lease go (its events stay for a client that resumes). */
  private async finish(record: CallRecord): Promise<void> {
    const { store, replica } = this.options;
    await store.release(this.leaseKey(record), replica);
    await store.delete(
      storeKey('call', record.session, JSON.stringify(record.request)),
      ...(record.stream ? [storeKey('call-stream', record.session, record.stream)] : []),
    );
  }

  private save(call: LiveCall): void {
    const { store, ttlMs } = this.options;
    const { record } = call;
    const request = JSON.stringify(record.request);
    const writes = [store.set(storeKey('call', record.session, request), JSON.stringify(record), ttlMs)];
    if (record.stream)
      writes.push(store.set(storeKey('call-stream', record.session, record.stream), request, ttlMs));
    Promise.all(writes).catch((error: unknown) =>
      this.options.log.warning(`could not keep a call record: ${String(error)}`),
    );
  }

  private liveKey(session: string, request: RequestId): string {
    return `${session}\u0000${JSON.stringify(request)}`;
  }
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}
