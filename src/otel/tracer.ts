/**
 * The OpenTelemetry side, loaded only when tracing is on (index.ts). Spans follow the semantic
 * conventions for MCP (server span `{mcp.method.name} {target}`) and HTTP clients (one span per
 * platform request). Parents come from the carrier handed in, never from a global context: no
 * context manager and no global provider are installed.
 */
import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { routeTemplate } from './route.js';
import type { McpRequestInfo, McpSpan, PlatformSpan, Tracing } from './types.js';

const propagator = new W3CTraceContextPropagator();

export function createTracing(options: { serviceName: string; version: string }): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      'service.version': options.version,
    }),
    // The exporter reads OTEL_EXPORTER_OTLP_* (endpoint, headers, timeout) itself.
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  const tracer = provider.getTracer('orbit-mcp', options.version);

  const carrierOf = (span: Span, parent: Context) => {
    const carrier: Record<string, string> = {};
    propagator.inject(trace.setSpan(parent, span), carrier, defaultTextMapSetter);
    return carrier;
  };

  const platformSpan = (parent: Context, method: string, path: string): PlatformSpan => {
    const route = routeTemplate(path);
    const span = tracer.startSpan(
      `${method} ${route}`,
      { kind: SpanKind.CLIENT, attributes: { 'http.request.method': method, 'url.template': route } },
      parent,
    );
    return {
      traceparent: carrierOf(span, parent).traceparent ?? '',
      end({ status, requestId, errorType }) {
        if (status !== undefined) span.setAttribute('http.response.status_code', status);
        if (requestId) span.setAttribute('orbit.request_id', requestId);
        const failed = errorType ?? (status !== undefined && status >= 400 ? String(status) : undefined);
        if (failed) {
          span.setAttribute('error.type', failed);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      },
    };
  };

  return {
    request(info: McpRequestInfo): McpSpan {
      const carrier = { traceparent: info.traceparent, tracestate: info.tracestate };
      const parent = info.traceparent
        ? propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter)
        : ROOT_CONTEXT;
      const attributes: Attributes = {
        'mcp.method.name': info.method,
        'network.transport': info.transport,
      };
      if (info.protocolVersion) attributes['mcp.protocol.version'] = info.protocolVersion;
      if (info.sessionId) attributes['mcp.session.id'] = info.sessionId;
      if (info.requestId !== undefined) attributes['jsonrpc.request.id'] = String(info.requestId);
      if (info.resourceUri) attributes['mcp.resource.uri'] = info.resourceUri;
      if (info.method === 'tools/call' && info.target) {
        attributes['gen_ai.tool.name'] = info.target;
        attributes['gen_ai.operation.name'] = 'execute_tool';
      }
      if (info.method === 'prompts/get' && info.target) attributes['gen_ai.prompt.name'] = info.target;
      const name = info.target ? `${info.method} ${info.target}` : info.method;
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
      const own = trace.setSpan(parent, span);
      return {
        platform: { start: (method, path) => platformSpan(own, method, path) },
        annotate(attributes) {
          span.setAttributes(attributes);
        },
        end({ errorType }) {
          if (errorType) {
            span.setAttribute('error.type', errorType);
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}
