/**
 * Tracing, off unless the standard OTLP variables name a collector. This file imports nothing of
 * OpenTelemetry: the SDK is loaded only when tracing is on, so a server without it starts and runs
 * exactly as before. What the rest of the server sees is the small interface of types.ts, handed
 * to it.
 */
import type { Tracing } from './types.js';

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
