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
  /**
   * Evaluation experiments (src/sandbox/evals/timeline.ts): time spent `queued`, then the time each
   * work unit (one candidate trace or one score) takes. Defaults 500 and 100 ms, so a run of 100
   * work units takes about ten seconds under `--sandbox`; tests set them to a few ms or 0.
   */
  evalQueueMs?: number;
  evalStepMs?: number;
  /** Background responses (src/sandbox/text/response-store.ts): time queued, then time running. */
  responseQueueMs?: number;
  responseRunMs?: number;
  /** When set, pending job status replies carry `retry-after-ms` with this poll hint. */
  pollHintMs?: number;
  /**
   * Pause between two crawled pages of the data API's crawler, whose reply streams in page by
   * page. Defaults to a fraction of a second so a person sees the crawl progress.
   */
  crawlPageMs?: number;
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
  /** How many requests the log keeps (the oldest go first); default 10,000. */
  maxRecorded?: number;
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
  /** A key that always exists, with a balance: what `--sandbox` uses for the person. */
  demoKey: string;
  /** The control route that serves the sandbox's own attestation roots (trusted only against it). */
  teeRootsPath: string;
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
  /** Bound of the request log. */
  maxRecorded: number;
  now(): number;
  log(line: string): void;
  /** Declares the error envelope of every path under a prefix (spec 1 §7.1). */
  setEnvelope(prefix: string, envelope: Envelope): void;
  envelopeFor(path: string): Envelope;
  /** Aborted when the sandbox closes, so pending waits end. */
  closing: AbortSignal;
  tee: SandboxEnclave;
}

/** The request a client sent, as a route reached by internal forwarding or replay sees it. */
export interface OriginalRequest {
  method: string;
  /** Path without the query. */
  path: string;
  /** `?a=b` or ''. */
  search: string;
  bodyText: string;
  contentType: string | undefined;
}

/**
 * Set only by the sandbox itself on internal requests (`app.fetch(request, env)`), never from a
 * client's bytes: the data API's forwarding and the x402 completion replay.
 */
interface InternalBindings {
  /** The client's request that the data API forwarded to this direct route. */
  forwardedFrom?: OriginalRequest;
  /** The paid quote this replay settles (x402 `completeUrl`). */
  x402Paid?: string;
}

export type SandboxEnv = {
  Bindings: HttpBindings & InternalBindings;
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
