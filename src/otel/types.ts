/**
 * What the rest of the server sees of tracing: a small interface, handed to it. A leaf: the
 * OpenTelemetry side (tracer.ts) implements it and index.ts decides whether to load that side.
 */

/** One MCP request as the conventions describe it (OTel semantic conventions for MCP). */
export interface McpRequestInfo {
  method: string;
  /** The tool or prompt named by the request: the low-cardinality part of the span name. */
  target?: string;
  resourceUri?: string;
  requestId?: string | number;
  sessionId?: string;
  protocolVersion?: string;
  /** `pipe` over stdio, `tcp` over HTTP. */
  transport: 'pipe' | 'tcp';
  /** The caller's W3C trace context: `_meta.traceparent` (2026-07-28) or the HTTP header. */
  traceparent?: string;
  tracestate?: string;
}

/** A span for one request to the platform, its context sent on as `traceparent`. */
export interface PlatformSpan {
  traceparent: string;
  end(outcome: { status?: number; requestId?: string; errorType?: string }): void;
}

/** Starts platform spans under one MCP request's span. */
export interface PlatformTrace {
  start(method: string, path: string): PlatformSpan;
}

export interface McpSpan {
  platform: PlatformTrace;
  /** Adds attributes before the span ends (a tool call's record: outcome, cost, request ids). */
  annotate(attributes: Record<string, string | number | string[]>): void;
  end(outcome: { errorType?: string }): void;
}

export interface Tracing {
  request(info: McpRequestInfo): McpSpan;
  /** Exports what is buffered; called before the process exits. */
  shutdown(): Promise<void>;
}
