import type { MiddlewareHandler } from 'hono';
import { findTextModel } from '../catalog/text-models.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord } from '../util.js';

/** Generation routes whose replies an enclave model signs (spec 2 §4.12). */
export const SIGNED_ROUTES = [
  '/api/v1/chat/completions',
  '/api/v1/messages',
  '/api/v1/responses',
  '/api/v1/completions',
] as const;

/**
 * Keeps the exact bytes of an enclave model's request and reply, and files the enclave's
 * signature over sha256(request):sha256(response) under the reply's ids (X-Request-ID and the
 * body's `id`). A stream's bytes are caught frame by frame as `streamSse` sends them. The
 * `response_bytes` corruption alters the bytes after they were signed, as a meddler in transit would.
 */
export function enclaveCapture(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const model = enclaveModel(c.get('bodyJson'));
    if (c.req.method !== 'POST' || !model) return next();
    const request = new Uint8Array(await c.req.arrayBuffer());
    // Looked at now (the bytes are altered as they go), spent only once a reply is signed.
    let alterNext = ctx.tee.replyCorruptions(model, false).has('response_bytes');
    const streamed: string[] = [];
    c.set('sseTap', (text) => {
      streamed.push(text);
      if (!alterNext) return text;
      const changed = alterInTransit(text);
      alterNext = changed === text;
      return changed;
    });
    await next();
    if (c.res.status !== 200) return;
    let response: Uint8Array;
    if (streamed.length > 0) {
      response = new TextEncoder().encode(streamed.join(''));
    } else {
      response = new Uint8Array(await c.res.clone().arrayBuffer());
      if (alterNext) c.res = withBody(c.res, alterInTransit(new TextDecoder().decode(response), true));
    }
    const ids = [c.get('requestId'), ...replyIds(new TextDecoder().decode(response))];
    const spoil = ctx.tee.replyCorruptions(model, true);
    ctx.tee.signReply(model, ids, request, response, spoil.has('signing_key'));
  };
}

/** The catalog id of the body's model when it runs in an enclave. */
function enclaveModel(body: unknown): string | undefined {
  if (!isRecord(body) || typeof body.model !== 'string') return undefined;
  const model = findTextModel(body.model.split(':')[0] ?? '');
  return model?.tee ? model.id : undefined;
}

/** Puts a marker into the first non-empty generated text; `force` changes the bytes regardless. */
function alterInTransit(text: string, force = false): string {
  const changed = text.replace(/"(content|text|delta)":"(?=[^"])/, '$&[altered in transit] ');
  if (changed !== text || !force) return changed;
  return `${text} `;
}

function withBody(res: Response, body: string): Response {
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

/** `id` of a JSON reply, or of the first SSE frame that has one (also `message.id`, `response.id`). */
function replyIds(body: string): string[] {
  const candidates = body.trimStart().startsWith('{')
    ? [body]
    : body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim());
  for (const candidate of candidates) {
    const id = idOf(candidate);
    if (id) return [id];
  }
  return [];
}

function idOf(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  for (const holder of [value, value.message, value.response]) {
    if (isRecord(holder) && typeof holder.id === 'string') return holder.id;
  }
  return undefined;
}
