import { z } from 'zod';
import { confirmAction } from '../../src/confirm-action.js';
import type { ToolContext } from '../../src/context.js';
import { InputError } from '../../src/errors.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { Invitation, need, requireRole, sessionCall, teamDetails, teamPath } from './shared.js';

/** Email invitations (spec 1 §2.8, §4.6): owner or admin; only a pending one can be revoked. */

type Ctx = Pick<ToolContext, 'api' | 'confirm'>;
const Email = z
  .string()
  .trim()
  // Aborts: the pattern after it backtracks over its input, so it never reads more than 254 characters.
  .max(254, { abort: true })
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);

/**
 * Spec 1 §2.8 lists an invitation's fields without marking any required: a new one is its `id`.
 * A write's result keeps what was sent (`sent`) apart from what the platform said, and never fills
 * one with the other or with a value of its own (issue 32).
 */
const Invited = Invitation.partial({ email: true, role: true, status: true });

export async function invite(ctx: Ctx, ref: string, args: { email?: string; role?: 'admin' | 'member' }) {
  const email = Email.safeParse(need(args.email, 'email', 'invite'));
  if (!email.success) {
    throw new InputError('`email` is not a valid email address.', {
      param: 'email',
      fix: 'Give one address such as ana@example.com.',
    });
  }
  const team = await teamDetails(ctx, ref);
  requireRole(team, 'admin', 'Inviting');
  const body = { email: email.data, role: args.role ?? 'member' };
  const { invitation } = await sessionCall(ctx, {
    method: 'POST',
    path: teamPath(ref, '/invitations'),
    body,
    schema: z.looseObject({ invitation: Invited }),
  });
  return { sent: body, invitation };
}

/** A team's invitations, read one by one (the list rule): one that cannot be used is left out and named. */
export async function listInvitations(ctx: Ctx, ref: string) {
  const { invitations } = await sessionCall(ctx, {
    method: 'GET',
    path: teamPath(ref, '/invitations'),
    schema: z.looseObject({ invitations: z.array(z.unknown()) }),
  });
  return usableList(Invitation, invitations, { nameKeys: ['email', 'id'] });
}

export async function revokeInvitation(
  ctx: Ctx,
  ref: string,
  args: { invitation?: string; confirm?: string },
) {
  const given = need(args.invitation, 'invitation', 'revoke_invitation').trim();
  const team = await teamDetails(ctx, ref);
  requireRole(team, 'admin', 'Revoking an invitation');
  const invitations = await listInvitations(ctx, ref);
  const found = invitations.items.find((i) => String(i.id) === given || i.token === given);
  if (!found) {
    const unusable = leftOutNote('invitation', invitations.left_out);
    throw new InputError(`No invitation "${given}" in "${team.name}"${unusable ? ` (${unusable})` : ''}.`, {
      param: 'invitation',
      fix: 'teams_read operation "invitations" lists them with their id.',
    });
  }
  if (found.status !== 'pending') {
    throw new InputError(
      `The invitation to ${found.email} is ${found.status}; only a pending one can be revoked.`,
      {
        param: 'invitation',
        fix: 'Nothing to do: it can no longer be accepted.',
      },
    );
  }
  await confirmAction(ctx, {
    action: `Revoke the invitation of ${found.email} (${found.role}) to the team "${team.name}"? The link in their email stops working.`,
    expected: team.name,
    what: 'the team name',
    given: args.confirm,
  });
  const body = { action: 'revoke', id: found.id };
  // The result object of a revoke is not shown in the spec: passed on as it came.
  const reply = await sessionCall(ctx, {
    method: 'PATCH',
    path: teamPath(ref, '/invitations'),
    body,
    schema: z.looseObject({}),
  });
  // Whom it was for, as the platform listed it before the revoke; no status is claimed for after.
  return { sent: body, reply, invitation: { id: found.id, email: found.email, role: found.role } };
}
