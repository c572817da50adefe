import type { HttpBindings } from '@hono/node-server';
import type { Envelope } from './errors.js';
import type { ActiveFault, FaultControl } from './faults.js';
import type { SandboxState } from './state.js';
import type { SandboxEnclave } from './tee/enclave.js';

/** Durations the sandbox waits for; all default to 0 so tests run fast. Later areas add job timings. */
export interface SandboxTiming {
  /** Pause between two SSE frames. */
  streamChunkDelayMs: number;
  /**
   * Media jobs (src/sandbox/media/jobs.ts). Unlike the rest these default to a few seconds, so a
   * person trying `--sandbox` sees a job queue and render; tests set them to a few ms.
   */
  videoQueueMs?: number;
  videoRenderMs?: number;
  speechJobMs?: number;
  transcriptionJobMs?: number;
  /** When set, pending job status replies carry `retry-after-ms` with this poll hint. */
  pollHintMs?: number;
}

export interface SandboxOptions {
  /** Port to listen on (127.0.0.1); 0 or absent picks a free port. */
  port?: number;
  timing?: Partial<SandboxTiming>;
  /** No log lines at all. Defaults to true; the sandbox never writes to stdout either way. */
  quiet?: boolean;
  /** Where log lines go when not quiet; defaults to stderr. */
  log?: (line: string) => void;
  /** Clock in epoch ms, for daily limits and timestamps; defaults to Date.now. */
  now?: () => number;
}

export interface RecordedRequest {
  /** The X-Request-ID the sandbox gave the reply. */
  id: string;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Header names lowercased. */
  headers: Record<string, string>;
  /** Body as text ('' when none; a size note for binary bodies). */
  body: string;
  /** The parsed body when it was JSON. */
  json?: unknown;
  /** Status of the reply, once known. */
  status?: number;
  at: number;
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
  state: SandboxState;
  faults: FaultControl;
  /** Every request seen (control routes excepted), oldest first; a live array. */
  requests: RecordedRequest[];
  clearRequests(): void;
  /** Enclave models' attestation: sandbox roots, signing addresses, corruptions (src/sandbox/tee). */
  tee: SandboxEnclave;
}

/** What every route module gets. */
export interface SandboxContext {
  state: SandboxState;
  faults: FaultControl;
  timing: SandboxTiming;
  requests: RecordedRequest[];
  now(): number;
  log(line: string): void;
  /** Declares the error envelope of every path under a prefix (spec 1 §7.1). */
  setEnvelope(prefix: string, envelope: Envelope): void;
  envelopeFor(path: string): Envelope;
  /** Aborted when the sandbox closes, so pending waits end. */
  closing: AbortSignal;
  tee: SandboxEnclave;
}

export type SandboxEnv = {
  Bindings: HttpBindings;
  Variables: {
    requestId: string;
    /** The request's sequence number; ids of generated objects derive from it. */
    seq: number;
    bodyText: string;
    /** The parsed body, or undefined when it was empty or not JSON. */
    bodyJson: unknown;
    fault: ActiveFault | undefined;
    /** Sees each SSE chunk before it is sent and returns what to send (enclave byte capture). */
    sseTap: ((text: string) => string) | undefined;
  };
};
