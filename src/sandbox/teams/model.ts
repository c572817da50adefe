import { sandboxUuid } from '../accounts/fixtures.js';
import { nextNumber } from '../accounts/people.js';
import type { SandboxState } from '../state.js';

/** Teams, members, invitations and join requests (spec 1 §2.8, §3, §4.6). */

const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
export const RANK: Record<Role, number> = { member: 1, admin: 2, owner: 3 };
export const TEAM_STATUSES = ['active', 'paused', 'suspended'] as const;
type TeamStatus = (typeof TEAM_STATUSES)[number];

export interface Membership {
  sessionId: number;
  role: Role;
  joinedAt: number;
  /** The member's own name in this team (own preferences `name`). */
  name: string | null;
  billToTeam: boolean;
  /** null: the team default applies. */
  usageLimitUsd: number | null;
  usageLimitEnforced: boolean | null;
  usageUsdMonthly: number;
}

export interface Invitation {
  id: number;
  email: string;
  role: 'admin' | 'member';
  /** Stored status; a pending invitation past `expiresAt` reads as `expired`. */
  status: 'pending' | 'accepted' | 'revoked';
  token: string;
  createdAt: number;
  expiresAt: number;
}

export interface JoinRequest {
  id: number;
  sessionId: number;
  status: 'pending' | 'accepted' | 'rejected' | 'cancelled';
  createdAt: number;
  decidedAt: number | null;
}

export interface Team {
  id: number;
  uuid: string;
  name: string;
  status: TeamStatus;
  pausedAt: number | null;
  suspendedAt: number | null;
  inviteLinkEnabled: boolean;
  inviteLinkToken: string | null;
  defaultMemberUsageLimitUsd: number | null;
  defaultUsageLimitEnforced: boolean;
  usageLimitUsd: number | null;
  usageLimitEnforced: boolean;
  responsesRetentionDays: number | null;
  highSpendTextDiscount: boolean;
  members: Membership[];
  invitations: Invitation[];
  joinRequests: JoinRequest[];
  /** When each invite-link email went out (the 5-per-minute limit). */
  inviteEmailsSentAt: number[];
}

export const INVITATION_TTL_MS = 7 * 86_400_000;

const store = (state: SandboxState) => state.collection<Team>('teams');

export const allTeams = (state: SandboxState): Team[] => [...store(state).values()];

/** A team by UUID (any case) or numeric id. */
export function findTeam(state: SandboxState, ref: string): Team | undefined {
  if (/^\d+$/.test(ref)) return allTeams(state).find((team) => team.id === Number(ref));
  return store(state).get(ref.toLowerCase());
}

export const membershipOf = (team: Team, sessionId: number): Membership | undefined =>
  team.members.find((m) => m.sessionId === sessionId);

export const teamsOf = (state: SandboxState, sessionId: number): Team[] =>
  allTeams(state).filter((team) => membershipOf(team, sessionId));

export function createTeam(
  state: SandboxState,
  ownerSessionId: number,
  name: string,
  fixed: { id?: number; uuid?: string; inviteLinkToken?: string } = {},
): Team {
  const id = fixed.id ?? nextNumber(state, 'teams') + 100;
  const now = state.now();
  const team: Team = {
    id,
    uuid: fixed.uuid ?? sandboxUuid('team', id),
    name,
    status: 'active',
    pausedAt: null,
    suspendedAt: null,
    inviteLinkEnabled: fixed.inviteLinkToken !== undefined,
    inviteLinkToken: fixed.inviteLinkToken ?? null,
    defaultMemberUsageLimitUsd: null,
    defaultUsageLimitEnforced: false,
    usageLimitUsd: null,
    usageLimitEnforced: false,
    responsesRetentionDays: null,
    highSpendTextDiscount: false,
    members: [],
    invitations: [],
    joinRequests: [],
    inviteEmailsSentAt: [],
  };
  addMember(team, ownerSessionId, 'owner', now);
  store(state).set(team.uuid, team);
  return team;
}

export function deleteTeam(state: SandboxState, team: Team): void {
  store(state).delete(team.uuid);
}

export function addMember(team: Team, sessionId: number, role: Role, now: number): Membership {
  const membership: Membership = {
    sessionId,
    role,
    joinedAt: now,
    name: null,
    billToTeam: false,
    usageLimitUsd: null,
    usageLimitEnforced: null,
    usageUsdMonthly: 0,
  };
  team.members.push(membership);
  return membership;
}

export function removeMember(team: Team, sessionId: number): void {
  team.members = team.members.filter((m) => m.sessionId !== sessionId);
}

export const invitationStatus = (invitation: Invitation, now: number): string =>
  invitation.status === 'pending' && invitation.expiresAt <= now ? 'expired' : invitation.status;

/** The invitation with this token in any team. */
export function findInvitation(
  state: SandboxState,
  token: string,
): { team: Team; invitation: Invitation } | undefined {
  for (const team of allTeams(state)) {
    const invitation = team.invitations.find((i) => i.token === token);
    if (invitation) return { team, invitation };
  }
  return undefined;
}
