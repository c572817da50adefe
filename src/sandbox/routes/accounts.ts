import type { Hono } from 'hono';
import { z } from 'zod';
import {
  createManagementToken,
  createSandboxPerson,
  describePeople,
  mustFindPerson,
} from '../accounts/control.js';
import { SANDBOX_MANAGEMENT_TOKENS } from '../accounts/fixtures.js';
import { seedAccounts } from '../accounts/seed.js';
import { jsonBody } from '../body.js';
import { CONTROL_PREFIX } from '../constants.js';
import { badRequest, SandboxError } from '../errors.js';
import { MANAGEMENT_SCOPES, MAX_TOKEN_DAYS, revokeManagementToken } from '../management/tokens.js';
import { findInvitation } from '../teams/model.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { planSubscription, QUOTAS, setSubscription, subscriptionOf } from '../usage/subscriptions.js';

/**
 * Seeds the account fixtures (people, teams, tokens, batches) and serves their controls under
 * `/__sandbox`: list the people, add one, mint or revoke management tokens, change a subscription,
 * expire an invitation.
 */

const Plan = z.enum(['active', 'grace', 'inactive', 'trial', 'degraded']);
const PersonSpec = z.strictObject({
  handle: z.string().regex(/^[a-z0-9_-]{1,32}$/),
  displayName: z.string().min(1).max(100).optional(),
  email: z.string().email().optional(),
  balanceUsd: z.number().min(0).optional(),
  plan: Plan.optional(),
});
const TokenSpec = z.strictObject({
  user: z.string().optional(),
  scopes: z.array(z.enum(MANAGEMENT_SCOPES)).min(1),
  name: z.string().min(1).max(100).optional(),
  expiresInDays: z.number().int().min(1).max(MAX_TOKEN_DAYS).optional(),
  expiresAt: z.number().int().optional(),
});
const Counter = z.strictObject({ used: z.number().min(0).optional(), limit: z.number().min(0).optional() });
const SubscriptionPatch = z.strictObject({
  plan: Plan.optional(),
  state: z.enum(['active', 'grace', 'inactive']).optional(),
  daily: Counter.optional(),
  monthly: Counter.optional(),
  unavailable: z.array(z.enum(QUOTAS)).optional(),
});

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw badRequest(`Invalid ${what}: ${z.prettifyError(parsed.error)}`, 'invalid_parameter_value');
  return parsed.data;
}

/** Turns a thrown set-up error (unknown person, duplicate handle) into a 400. */
function attempt<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof SandboxError) throw error;
    throw badRequest(error instanceof Error ? error.message : String(error), 'invalid_parameter_value');
  }
}

export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  seedAccounts(ctx.state);
  const at = (path: string) => `${CONTROL_PREFIX}${path}`;

  app.get(at('/accounts'), (c) =>
    c.json({ data: describePeople(ctx.state), managementTokens: SANDBOX_MANAGEMENT_TOKENS }),
  );

  app.post(at('/accounts'), (c) => {
    const spec = parse(PersonSpec, jsonBody(c), 'person');
    attempt(() => createSandboxPerson(ctx.state, spec));
    const described = describePeople(ctx.state).find((p) => p.handle === spec.handle);
    return c.json(described, 201);
  });

  app.post(at('/management-tokens'), (c) => {
    const spec = parse(TokenSpec, jsonBody(c), 'token spec');
    const token = attempt(() => createManagementToken(ctx.state, spec));
    return c.json(
      {
        id: token.id,
        token: token.secret,
        user: spec.user ?? 'demo',
        scopes: token.scopes,
        expires_at: new Date(token.expiresAt).toISOString(),
      },
      201,
    );
  });

  app.delete(at('/management-tokens/:id'), (c) => {
    const token = revokeManagementToken(ctx.state, c.req.param('id') ?? '');
    if (!token)
      throw new SandboxError(404, `No management token ${c.req.param('id') ?? ''}.`, { code: 'not_found' });
    return c.json({ id: token.id, revoked: true });
  });

  app.patch(at('/subscriptions/:handle'), (c) => {
    const patch = parse(SubscriptionPatch, jsonBody(c), 'subscription patch');
    const person = attempt(() => mustFindPerson(ctx.state, c.req.param('handle') ?? ''));
    const sub = patch.plan
      ? planSubscription(patch.plan, ctx.now())
      : subscriptionOf(ctx.state, person.accountId);
    if (patch.state) sub.state = patch.state;
    if (patch.daily) Object.assign(sub.operations.daily, patch.daily);
    if (patch.monthly) Object.assign(sub.operations.monthly, patch.monthly);
    if (patch.unavailable) sub.unavailable = patch.unavailable;
    setSubscription(ctx.state, person.accountId, sub);
    return c.json(sub);
  });

  app.post(at('/invitations/:token/expire'), (c) => {
    const found = findInvitation(ctx.state, c.req.param('token') ?? '');
    if (!found) throw new SandboxError(404, 'No invitation with this token.', { code: 'not_found' });
    found.invitation.expiresAt = ctx.now();
    return c.json({ token: found.invitation.token, expired: true });
  });
}
