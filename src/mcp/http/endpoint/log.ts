import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRedactor } from '../../../secrets.js';

/** What the endpoint learns of a request while handling it, for its log line. */
export interface RequestFacts {
  /** The first 12 hex digits of the key's fingerprint: which tenant, never the key. */
  tenant?: string;
  /** The JSON-RPC method (`batch` for several). */
  rpc?: string;
  /** The tool of a tools/call, when it is one this server has. */
  tool?: string;
  /** The request's own credentials: redacted from its line, whatever happens. */
  secrets?: readonly string[];
}

export interface RequestLogOptions {
  replica: string;
  /** Names of the tools this server has: a name a client made up is logged as `unknown`. */
  tools: ReadonlySet<string>;
  write?: (line: string) => void;
}

const RPC_METHOD = /^[a-z][a-z0-9_/]{0,63}$/i;

/**
 * One JSON line per HTTP request on stderr, for log shippers: when, which replica, the tenant's
 * fingerprint prefix, the JSON-RPC method and tool, the status and the duration. Never a key or
 * a header value: the only client-chosen texts kept are a method name of a safe shape and a tool
 * name this server knows, and the line is redacted with the request's own credentials on top.
 */
export function requestLogger(options: RequestLogOptions) {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  return (req: IncomingMessage, res: ServerResponse): RequestFacts => {
    const facts: RequestFacts = {};
    const started = performance.now();
    res.once('close', () => {
      const line = {
        time: new Date().toISOString(),
        level: 'info',
        msg: 'http request',
        replica: options.replica,
        method: req.method ?? 'GET',
        path: new URL(req.url ?? '/', 'http://localhost').pathname,
        ...(facts.rpc !== undefined ? { rpc: facts.rpc } : {}),
        ...(facts.tool !== undefined ? { tool: facts.tool } : {}),
        ...(facts.tenant !== undefined ? { tenant: facts.tenant } : {}),
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      write(createRedactor(facts.secrets).text(JSON.stringify(line)));
    });
    return facts;
  };
}

/** The method and tool of a JSON-RPC body, in the shapes the log keeps. */
export function describeBody(body: unknown, tools: ReadonlySet<string>): Pick<RequestFacts, 'rpc' | 'tool'> {
  if (Array.isArray(body)) return { rpc: 'batch' };
  if (typeof body !== 'object' || body === null) return {};
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (typeof method !== 'string') return { rpc: 'response' };
  const rpc = RPC_METHOD.test(method) ? method : 'unknown';
  if (method !== 'tools/call') return { rpc };
  const name =
    typeof params === 'object' && params !== null ? (params as { name?: unknown }).name : undefined;
  return { rpc, tool: typeof name === 'string' && tools.has(name) ? name : 'unknown' };
}
