import { personById } from '../accounts/people.js';
import { fromNanos, type SandboxState } from '../state.js';
import { roundUsd } from '../util.js';
import {
  type Invitation,
  invitationStatus,
  type JoinRequest,
  type Membership,
  type Role,
  type Team,
} from './model.js';

/** The team API's reply shapes (spec 1 §2.8). Times are ISO strings. */

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const teamListItem = (team: Team, role: Role) => ({
  uuid: team.uuid,
  name: team.name,
  status: team.status,
  role,
});

export function teamDetails(state: SandboxState, team: Team, role: Role) {
  const owner = team.members.find((m) => m.role === 'owner');
  const ownerAccount = owner ? personById(state, owner.sessionId)?.accountId : undefined;
  const account = ownerAccount ? state.account(ownerAccount) : undefined;
  return {
    id: team.id,
    uuid: team.uuid,
    name: team.name,
    status: team.status,
    paused_at: iso(team.pausedAt),
    suspended_at: iso(team.suspendedAt),
    invite_link_enabled: team.inviteLinkEnabled,
    invite_link_token: team.inviteLinkEnabled ? team.inviteLinkToken : null,
    default_member_usage_limit_usd: team.defaultMemberUsageLimitUsd,
    usage_limit_usd: team.usageLimitUsd,
    responses_retention_days: team.responsesRetentionDays,
    usage_limit_enforced: team.usageLimitEnforced,
    high_spend_text_discount: team.highSpendTextDiscount,
    // The owner's balances; the sandbox has no crypto balance, so the second one is 0.
    balances: { usd_balance: roundUsd(fromNanos(account?.balanceNanos ?? 0)), crypto_balance: 0 },
    role,
  };
}

export function memberView(state: SandboxState, membership: Membership) {
  const person = personById(state, membership.sessionId);
  return {
    sessionId: membership.sessionId,
    sessionUUID: person?.sessionUUID ?? null,
    role: membership.role,
    joinedAt: new Date(membership.joinedAt).toISOString(),
    member_name: membership.name,
    displayName: person?.displayName ?? null,
    email: person?.email ?? null,
    usage_limit_usd: membership.usageLimitUsd,
    usage_limit_enforced: membership.usageLimitEnforced,
    usage_usd_monthly: membership.usageUsdMonthly,
  };
}

/** Own preferences: the member's overrides, the team defaults, and what applies (override or default). */
export function preferencesView(team: Team, membership: Membership) {
  return {
    bill_to_team: membership.billToTeam,
    name: membership.name,
    usage_limit_usd: membership.usageLimitUsd,
    usage_limit_enforced: membership.usageLimitEnforced,
    default_member_usage_limit_usd: team.defaultMemberUsageLimitUsd,
    default_usage_limit_enforced: team.defaultUsageLimitEnforced,
    effective_usage_limit_usd: membership.usageLimitUsd ?? team.defaultMemberUsageLimitUsd,
    effective_usage_limit_enforced: membership.usageLimitEnforced ?? team.defaultUsageLimitEnforced,
  };
}

export const invitationView = (invitation: Invitation, now: number) => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  status: invitationStatus(invitation, now),
  token: invitation.token,
  created_at: iso(invitation.createdAt),
  expires_at: iso(invitation.expiresAt),
});

export function joinRequestView(state: SandboxState, request: JoinRequest) {
  const person = personById(state, request.sessionId);
  return {
    id: request.id,
    sessionId: request.sessionId,
    displayName: person?.displayName ?? null,
    email: person?.email ?? null,
    status: request.status,
    created_at: iso(request.createdAt),
    decided_at: iso(request.decidedAt),
  };
}
