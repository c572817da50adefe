/**
 * Tracing, off unless the standard OTLP variables name a collector. This file imports nothing of
 * OpenTelemetry: the SDK is loaded only when tracing is on, so a server without it starts and runs
 * exactly as before. What the rest of the server sees is the small interface below, handed to it.
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

type Env = Record<string, string | undefined>;

/** Whether the environment asks for traces (the exporter reads the rest of OTEL_EXPORTER_OTLP_*). */
export function tracingWanted(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** The tracer when the environment asks for one; undefined (and nothing loaded) otherwise. */
export async function startTracing(env: Env, version: string): Promise<Tracing | undefined> {
  if (!tracingWanted(env)) return undefined;
  const { createTracing } = await import('./tracer.js');
  return createTracing({ serviceName: env.OTEL_SERVICE_NAME || 'orbit-mcp', version });
}
