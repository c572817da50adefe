import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import { CONTROL_PREFIX, DATA_ENDPOINT_HEADER, DIRECT_ENDPOINT_HEADER } from '../constants.js';
import { DATA_ENDPOINTS, DATA_PREFIX, type DataEndpoint } from '../data/catalog.js';
import { closestIds, findEndpoint, resolveDataPath } from '../data/ids.js';
import { CATALOG_CACHE_CONTROL, catalogBody, metadataBody } from '../data/views.js';
import { badRequest, SandboxError } from '../errors.js';
import { jsonReply } from '../reply.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord } from '../util.js';

/** Headers a forward drops (spec 1 §4.5). */
const HOP_BY_HOP = new Set([
  'connection',
  'content-length',
  'host',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
]);
const DISPATCH_KEYS = ['endpoint', 'id', 'type', 'input', 'data'];

/** Endpoints a test has marked as having no dispatcher (`POST /__sandbox/data/unsupported`). */
export const unsupportedEndpoints = (ctx: SandboxContext): Map<string, true> =>
  ctx.state.collection<true>('data.unsupported');

/**
 * The data API (spec 1 §4.5, §7.1 envelope 5, §7.2 wrapper codes): the catalog, body-style and
 * path-style dispatch, and the forward to the direct route over the app itself, so the direct
 * route's validation, billing, limits and payment behaviour apply unchanged.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope(DATA_PREFIX, 'data');
  const origin = (c: Context<SandboxEnv>) => new URL(c.req.url).origin;
  const catalog = (c: Context<SandboxEnv>) =>
    jsonReply(c, catalogBody(origin(c)), 200, { 'Cache-Control': CATALOG_CACHE_CONTROL });

  app.get(DATA_PREFIX, catalog);
  app.get(`${DATA_PREFIX}/endpoints`, catalog);
  app.post(DATA_PREFIX, (c) => {
    const { entry, input } = bodyDispatch(c);
    return forward(app, c, ctx, entry, '', 'POST', JSON.stringify(input));
  });
  app.all(DATA_PREFIX, () => {
    throw methodNotAllowed(['GET', 'POST'], DATA_PREFIX);
  });
  app.all(`${DATA_PREFIX}/endpoints`, () => {
    throw methodNotAllowed(['GET'], `${DATA_PREFIX}/endpoints`);
  });

  app.all(`${DATA_PREFIX}/*`, (c) => {
    const requested = c.req.path.slice(DATA_PREFIX.length + 1);
    const found = resolveDataPath(requested);
    if (!found) throw unknownEndpoint(requested);
    const { entry, rest } = found;
    const method = c.req.method;
    if (method === 'GET' && !entry.methods.includes('GET')) {
      return jsonReply(c, metadataBody(entry, origin(c)), 200, { 'Cache-Control': CATALOG_CACHE_CONTROL });
    }
    if (method === 'GET') return forward(app, c, ctx, entry, rest, 'GET', undefined);
    if (method !== 'POST') throw methodNotAllowed(entry.methods, `${DATA_PREFIX}${entry.path}`);
    const text = c.get('bodyText');
    if (text.trim() && c.get('bodyJson') === undefined) {
      throw dataError(
        400,
        'The request body is not valid JSON; send the endpoint input as a JSON object.',
        'invalid_json',
      );
    }
    // The body goes on byte for byte; an empty one becomes `{}`.
    return forward(app, c, ctx, entry, rest, 'POST', text.trim() ? text : '{}');
  });

  // Control: make an endpoint's dispatch fail with 500 unsupported_data_endpoint, or clear that.
  const Unsupported = z.strictObject({ endpoint: z.enum(DATA_ENDPOINTS.map((e) => e.id)) });
  app.post(`${CONTROL_PREFIX}/data/unsupported`, (c) => {
    const parsed = Unsupported.safeParse(jsonBody(c));
    if (!parsed.success)
      throw badRequest(z.prettifyError(parsed.error), 'invalid_parameter_value', 'endpoint');
    unsupportedEndpoints(ctx).set(parsed.data.endpoint, true);
    return c.json({ unsupported: [...unsupportedEndpoints(ctx).keys()] });
  });
  app.delete(`${CONTROL_PREFIX}/data/unsupported`, (c) => {
    const cleared = unsupportedEndpoints(ctx).size;
    unsupportedEndpoints(ctx).clear();
    return c.json({ cleared });
  });
}

const dataError = (status: number, message: string, code: string, headers?: Record<string, string>) =>
  new SandboxError(status, message, {
    code,
    ...(status === 405 ? { type: 'invalid_request_error' } : {}),
    ...(headers ? { headers } : {}),
  });

const methodNotAllowed = (allowed: readonly string[], path: string) =>
  dataError(405, `${path} accepts ${allowed.join(' and ')} only.`, 'method_not_allowed', {
    Allow: allowed.join(', '),
  });

function unknownEndpoint(requested: string): SandboxError {
  const near = closestIds(requested);
  return dataError(
    404,
    `Unknown data endpoint "${requested}". Closest: ${near.join(', ')}. List them with GET ${DATA_PREFIX}/endpoints.`,
    'unknown_endpoint',
  );
}

/** Body-style dispatch: the target from `endpoint`, `id` or `type`; the input from `input`, `data` or the rest. */
function bodyDispatch(c: Context<SandboxEnv>): { entry: DataEndpoint; input: Record<string, unknown> } {
  const json = c.get('bodyJson');
  if (!c.get('bodyText').trim() || json === undefined) {
    throw dataError(
      400,
      'The request body must be valid JSON, such as {"endpoint": "web.search", "input": {"query": "..."}}.',
      'invalid_json',
    );
  }
  if (!isRecord(json)) {
    throw dataError(
      400,
      'The request body must be a JSON object with `endpoint` and `input`.',
      'invalid_body',
    );
  }
  const target = json.endpoint ?? json.id ?? json.type;
  if (target === undefined || target === null || target === '') {
    throw dataError(
      400,
      'Name the endpoint in `endpoint` (or `id`, `type`), such as "web.search".',
      'missing_endpoint',
    );
  }
  if (typeof target !== 'string')
    throw dataError(400, '`endpoint` must be a string id such as "web.search".', 'invalid_body');
  const entry = findEndpoint(target);
  if (!entry) throw unknownEndpoint(target);
  const input =
    json.input !== undefined
      ? json.input
      : json.data !== undefined
        ? json.data
        : Object.fromEntries(Object.entries(json).filter(([name]) => !DISPATCH_KEYS.includes(name)));
  if (!isRecord(input)) {
    const field = json.input !== undefined ? 'input' : 'data';
    throw dataError(400, `\`${field}\` must be a JSON object of ${entry.id}'s fields.`, 'invalid_body');
  }
  return { entry, input };
}

async function forward(
  app: Hono<SandboxEnv>,
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  entry: DataEndpoint,
  rest: string,
  method: 'GET' | 'POST',
  body: string | undefined,
): Promise<Response> {
  if (unsupportedEndpoints(ctx).has(entry.id)) {
    throw dataError(
      500,
      `The data API has no dispatcher for ${entry.id} right now.`,
      'unsupported_data_endpoint',
    );
  }
  const url = new URL(c.req.url);
  const directPath = `${entry.direct}${rest ? `/${rest}` : ''}`;
  const headers = new Headers();
  for (const [name, value] of c.req.raw.headers) if (!HOP_BY_HOP.has(name)) headers.set(name, value);
  if (body !== undefined) headers.set('content-type', 'application/json');
  const forwardedFrom = c.env?.forwardedFrom ?? {
    method: c.req.method,
    path: c.req.path,
    search: url.search,
    bodyText: c.get('bodyText'),
    contentType: c.req.header('content-type'),
  };
  const request = new Request(`${url.origin}${directPath}${url.search}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    signal: c.req.raw.signal,
  });
  const res = await app.fetch(request, { ...c.env, forwardedFrom });
  const out = new Headers(res.headers);
  out.set(DATA_ENDPOINT_HEADER, entry.id);
  out.set(DIRECT_ENDPOINT_HEADER, directPath);
  out.set('Access-Control-Expose-Headers', `${DATA_ENDPOINT_HEADER}, ${DIRECT_ENDPOINT_HEADER}`);
  out.set('X-Request-ID', c.get('requestId'));
  return new Response(res.body, { status: res.status, headers: out });
}
