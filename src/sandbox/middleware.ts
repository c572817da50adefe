import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context, MiddlewareHandler } from 'hono';
import { CONTROL_PREFIX } from './constants.js';
import { reshape } from './drift/reshape.js';
import { SandboxError } from './errors.js';
import { type ActiveFault, defaultFaultCode, defaultFaultMessage, isStreamFault } from './faults.js';
import { errorReply } from './reply.js';
import type { RecordedRequest, SandboxContext, SandboxEnv } from './types.js';
import { isRecord, pad, sleep } from './util.js';

type Handler = MiddlewareHandler<SandboxEnv>;

/** Every reply carries `X-Request-ID: req_NNNNNN`, numbered in arrival order. */
export function requestIds(): Handler {
  let counter = 0;
  return async (c, next) => {
    counter += 1;
    const id = `req_${pad(counter)}`;
    c.set('seq', counter);
    c.set('requestId', id);
    c.header('X-Request-ID', id);
    await next();
    if (!c.res.headers.has('x-request-id')) c.header('X-Request-ID', id);
  };
}

/** A sandbox left running for days keeps only the newest requests. */
/** The log keeps a body's first megabyte: enough for every assertion, never a flood of media. */
const MAX_LOGGED_BODY = 1_048_576;
const BINARY_TYPES = /^(audio|image|video)\/|application\/octet-stream/;

/** Reads the body once (routes reuse it) and logs the request, control routes excepted. */
export function recorder(ctx: SandboxContext): Handler {
  return async (c, next) => {
    const { text, json } = await readBody(c);
    c.set('bodyText', text);
    c.set('bodyJson', json);
    if (c.req.path.startsWith(CONTROL_PREFIX)) return next();
    const url = new URL(c.req.url);
    const record: RecordedRequest = {
      id: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(c.req.raw.headers),
      body:
        text.length > MAX_LOGGED_BODY
          ? `${text.slice(0, MAX_LOGGED_BODY)}[… ${text.length} characters in all]`
          : text,
      ...(json === undefined || text.length > MAX_LOGGED_BODY ? {} : { json }),
      at: ctx.now(),
    };
    ctx.requests.push(record);
    if (ctx.requests.length > ctx.maxRecorded) ctx.requests.splice(0, ctx.requests.length - ctx.maxRecorded);
    await next();
    record.status = c.res.status;
    ctx.log(`${record.method} ${record.path} -> ${record.status} (${record.id})`);
  };
}

async function readBody(c: Context<SandboxEnv>): Promise<{ text: string; json: unknown }> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return { text: '', json: undefined };
  // arrayBuffer is cached by Hono, so routes can still call c.req.formData() or c.req.json().
  const bytes = await c.req.arrayBuffer();
  const type = c.req.header('content-type') ?? '';
  if (BINARY_TYPES.test(type)) return { text: `[${bytes.byteLength} bytes of ${type}]`, json: undefined };
  const text = new TextDecoder().decode(bytes);
  if (!text) return { text, json: undefined };
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: undefined };
  }
}

const MALFORMED_JSON = '{"id": "sandbox-malformed", "choices": [{"index": 0, "message": ';

/** Applies the first matching fault: waits, then answers with the fault or lets the route run. */
export function faultInjector(ctx: SandboxContext): Handler {
  return async (c, next) => {
    if (c.req.path.startsWith(CONTROL_PREFIX)) return next();
    const body = c.get('bodyJson');
    const streaming = isRecord(body) && body.stream === true;
    const fault = ctx.faults.take(c.req.method, c.req.path, streaming);
    c.set('fault', fault);
    if (!fault) return next();
    if (fault.latencyMs) await sleep(fault.latencyMs, c.req.raw.signal, ctx.closing);
    // Stream faults are applied by the SSE writer, frame by frame.
    if (isStreamFault(fault)) return next();
    if (fault.malformedBody) {
      if (streaming) {
        return c.body(`data: ${MALFORMED_JSON}\n\ndata: [DONE]\n\n`, 200, {
          'Content-Type': 'text/event-stream',
        });
      }
      return c.body(MALFORMED_JSON, 200, { 'Content-Type': 'application/json' });
    }
    if (fault.status !== undefined) return faultReply(c, ctx, fault);
    if (fault.dropReply) {
      await next();
      c.env?.outgoing?.socket?.destroy();
      c.res = RESPONSE_ALREADY_SENT;
      return;
    }
    if (fault.reshape) {
      await next();
      await reshapeReply(c, fault);
      return;
    }
    return next();
  };
}

/**
 * Replaces a JSON reply by its reshaped copy; other replies (streams, media) pass unchanged, save
 * for a whole replacement (`replace`, `text`), which any reply may get: JSON, or text where it was
 * not JSON (an audio route answering a page).
 */
async function reshapeReply(c: Context<SandboxEnv>, fault: ActiveFault): Promise<void> {
  const change = fault.reshape;
  if (!change) return;
  const type = c.res.headers.get('content-type') ?? '';
  const whole = change.text !== undefined || 'replace' in change;
  let reshaped: string;
  if (whole) reshaped = change.text ?? JSON.stringify(change.replace);
  else {
    if (!type.includes('json')) return;
    try {
      reshaped = JSON.stringify(reshape(JSON.parse(await c.res.clone().text()), change));
    } catch {
      return;
    }
  }
  const { status } = c.res;
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  if (change.text === undefined && !type.includes('json')) headers.set('content-type', 'application/json');
  else if (change.text !== undefined && !type.includes('json')) headers.set('content-type', 'text/plain');
  // Cleared first, so Hono does not merge the old reply's headers into the new one.
  c.res = undefined as unknown as Response;
  c.res = new Response(reshaped, { status, headers });
}

function faultReply(c: Context<SandboxEnv>, ctx: SandboxContext, fault: ActiveFault): Response {
  const status = fault.status ?? 500;
  const headers: Record<string, string> = { ...fault.headers };
  if (fault.retryAfterSeconds !== undefined) headers['Retry-After'] = String(fault.retryAfterSeconds);
  const error = new SandboxError(status, fault.message ?? defaultFaultMessage(status), {
    code: fault.code ?? defaultFaultCode(status),
    body: fault.body,
    headers,
  });
  return errorReply(c, ctx, error);
}
