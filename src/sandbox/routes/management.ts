import type { Context, Hono } from 'hono';
import { jsonBody } from '../body.js';
import { SandboxError } from '../errors.js';
import { CreateKeyBody, futureExpiry, keyView, parseBody, UpdateKeyBody } from '../management/api-keys.js';
import { type ManagementCaller, requireManagementToken } from '../management/auth.js';
import { fingerprint, idempotencyKey, rememberReply, storedReply } from '../management/idempotency.js';
import { jsonReply } from '../reply.js';
import type { KeyRecord } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { managementUsage } from '../usage/views.js';

/** The management API (spec 1 §4.3): subscription quotas and API keys, by management token. */

const BASE = '/api/management/v1';
type C = Context<SandboxEnv>;

export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  // Private and uncached, errors included; X-Request-ID comes from the global middleware.
  app.use(`${BASE}/*`, async (c, next) => {
    await next();
    c.header('Cache-Control', 'private, no-store');
  });

  app.get(`${BASE}/subscription/usage`, (c) => {
    const { owner } = requireManagementToken(c, ctx, 'usage:read');
    return c.json(managementUsage(ctx.state, owner.accountId));
  });

  app.get(`${BASE}/api-keys`, (c) => {
    const { owner } = requireManagementToken(c, ctx, 'api_keys:read');
    return c.json({ object: 'list', data: ctx.state.keysOf(owner.accountId).map(keyView) });
  });

  app.get(`${BASE}/api-keys/:id`, (c) => {
    const caller = requireManagementToken(c, ctx, 'api_keys:read');
    return c.json(keyView(ownKey(c, ctx, caller)));
  });

  app.post(`${BASE}/api-keys`, (c) => create(c, ctx));

  app.patch(`${BASE}/api-keys/:id`, (c) => {
    const caller = requireManagementToken(c, ctx, 'api_keys:write');
    const record = ownKey(c, ctx, caller);
    const body = parseBody(UpdateKeyBody, jsonBody(c));
    if (body.name !== undefined) record.label = body.name;
    if (body.disabled !== undefined) record.disabled = body.disabled;
    if (body.daily_usd_limit !== undefined) record.dailyUsdLimit = body.daily_usd_limit ?? undefined;
    if (body.daily_request_limit !== undefined)
      record.dailyRequestLimit = body.daily_request_limit ?? undefined;
    const expiry = futureExpiry(body.expires_at, ctx.now());
    if (expiry !== undefined) record.expiresAt = expiry ?? undefined;
    return c.json(keyView(record));
  });

  app.delete(`${BASE}/api-keys/:id`, (c) => {
    const caller = requireManagementToken(c, ctx, 'api_keys:write');
    const record = ownKey(c, ctx, caller);
    ctx.state.deleteKey(record.key);
    return c.json({ id: record.id, object: 'api_key', deleted: true });
  });
}

/** Creates a key once per Idempotency-Key; a retry replays the first reply, secret included. */
function create(c: C, ctx: SandboxContext): Response {
  const { owner } = requireManagementToken(c, ctx, 'api_keys:write');
  const key = idempotencyKey(c);
  const raw = jsonBody(c);
  const print = fingerprint(raw);
  const scope = `session:${owner.sessionId}`;
  const replay = storedReply(ctx.state, scope, key, print);
  if (replay) return jsonReply(c, replay.body, replay.status, { 'Idempotent-Replayed': 'true' });

  const body = parseBody(CreateKeyBody, raw);
  const expiresAt = futureExpiry(body.expires_at, ctx.now()) ?? undefined;
  const secret = ctx.state.createKey({
    account: owner.accountId,
    label: body.name,
    ...(body.daily_usd_limit != null ? { dailyUsdLimit: body.daily_usd_limit } : {}),
    ...(body.daily_request_limit != null ? { dailyRequestLimit: body.daily_request_limit } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  });
  const record = ctx.state.getKey(secret);
  if (!record) throw new Error('a created key must exist');
  const reply = { ...keyView(record), key: secret };
  rememberReply(ctx.state, scope, key, { fingerprint: print, status: 201, body: reply });
  return jsonReply(c, reply, 201);
}

/** A key of the token owner's account; keys of other accounts are not found, as unknown ids are. */
function ownKey(c: C, ctx: SandboxContext, caller: ManagementCaller): KeyRecord {
  const id = c.req.param('id');
  const record = ctx.state.keysOf(caller.owner.accountId).find((k) => k.id === id);
  if (!record)
    throw new SandboxError(404, `No API key with id ${id} in this account.`, {
      code: 'not_found',
      param: 'id',
    });
  return ctx.state.getKey(record.key) ?? record;
}
