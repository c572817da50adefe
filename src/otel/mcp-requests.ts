/**
 * One span per MCP request, around every handler the server registers, when tracing is on. The
 * span is found again from the handler's own context object (`spanOf(ctx)`), which
 * the server hands to the tools it runs: no global or async-local context is read.
 */
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { McpSpan, Tracing } from './types.js';

type Params = { name?: unknown; uri?: unknown; _meta?: Record<string, unknown> } | undefined;

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/**
 * Wraps `server.setRequestHandler` so handlers registered afterwards run inside a span. Returns
 * the span of a handler's context (its platform side, and attributes to add).
 */
export function traceRequests(
  server: Server,
  tracing: Tracing,
  transport: 'pipe' | 'tcp',
): (ctx: ServerContext) => McpSpan | undefined {
  const spans = new WeakMap<ServerContext, McpSpan>();
  const register = server.setRequestHandler.bind(server) as (
    method: string,
    handler: (request: { params?: Params }, ctx: ServerContext) => unknown,
  ) => void;
  const traced = (method: string, handler: (request: { params?: Params }, ctx: ServerContext) => unknown) =>
    register(method, async (request, ctx) => {
      const params = request.params;
      const headers = ctx.http?.req?.headers;
      const span = tracing.request({
        method,
        target: method === 'tools/call' || method === 'prompts/get' ? text(params?.name) : undefined,
        resourceUri: method === 'resources/read' ? text(params?.uri) : undefined,
        requestId: ctx.mcpReq.id,
        sessionId: ctx.sessionId,
        protocolVersion: server.getNegotiatedProtocolVersion(),
        transport,
        // 2026-07-28 carries the context in the request itself; the HTTP header covers the rest.
        traceparent: text(params?._meta?.traceparent) ?? headers?.get('traceparent') ?? undefined,
        tracestate: text(params?._meta?.tracestate) ?? headers?.get('tracestate') ?? undefined,
      });
      spans.set(ctx, span);
      try {
        const result = await handler(request, ctx);
        const failed = (result as { isError?: unknown } | undefined)?.isError === true;
        span.end({ errorType: failed ? 'tool_error' : undefined });
        return result;
      } catch (error) {
        span.end({
          errorType:
            (error as { code?: unknown }).code !== undefined
              ? String((error as { code: unknown }).code)
              : 'error',
        });
        throw error;
      }
    });
  Object.assign(server, { setRequestHandler: traced });
  return (ctx) => spans.get(ctx);
}
