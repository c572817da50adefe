import { seedBatches } from '../batches/store.js';
import { MANAGEMENT_SCOPES, mintManagementToken } from '../management/tokens.js';
import type { SandboxState } from '../state.js';
import { addMember, createTeam, type Team } from '../teams/model.js';
import { createSandboxPerson } from './control.js';
import { SANDBOX_INVITATIONS, SANDBOX_MANAGEMENT_TOKENS, SANDBOX_PEOPLE, SANDBOX_TEAMS } from './fixtures.js';
import { nextNumber, type Person } from './people.js';

/** Seeds a fresh sandbox's people, tokens, teams, invitations and batches (see fixtures.ts). */

const DAY_MS = 86_400_000;

export function seedAccounts(state: SandboxState): void {
  const now = state.now();
  const people: Record<string, Person> = {};
  for (const [handle, fixture] of Object.entries(SANDBOX_PEOPLE)) {
    people[handle] = createSandboxPerson(state, { handle, ...fixture });
  }
  const demo = people.demo as Person;
  const admin = people.admin as Person;
  const member = people.member as Person;

  const T = SANDBOX_MANAGEMENT_TOKENS;
  const mint = (
    secret: string,
    owner: Person,
    scopes: readonly (typeof MANAGEMENT_SCOPES)[number][],
    extra = {},
  ) => mintManagementToken(state, { secret, owner, scopes, name: secret, ...extra });
  mint(T.usage, demo, ['usage:read']);
  mint(T.keysRead, demo, ['api_keys:read']);
  mint(T.keysWrite, demo, ['api_keys:write']);
  mint(T.all, demo, MANAGEMENT_SCOPES);
  mint(T.expired, demo, MANAGEMENT_SCOPES, { expiresAt: now - DAY_MS });
  mint(T.revoked, demo, MANAGEMENT_SCOPES).revokedAt = now - DAY_MS;
  mint(T.memberAll, member, MANAGEMENT_SCOPES);

  const main = createTeam(state, demo.sessionId, SANDBOX_TEAMS.main.name, SANDBOX_TEAMS.main);
  join(main, admin, 'admin', now - 20 * DAY_MS, 12.5);
  join(main, member, 'member', now - 10 * DAY_MS, 1.75);
  setOwner(main, now - 30 * DAY_MS, 4.25);
  main.defaultMemberUsageLimitUsd = 20;
  const memberShip = main.members.find((m) => m.sessionId === member.sessionId);
  if (memberShip) {
    memberShip.usageLimitUsd = 10;
    memberShip.usageLimitEnforced = true;
  }
  seedInvitations(state, main, now);

  const lab = createTeam(state, admin.sessionId, SANDBOX_TEAMS.lab.name, SANDBOX_TEAMS.lab);
  lab.inviteLinkEnabled = false;
  setOwner(lab, now - 15 * DAY_MS, 2);
  join(lab, demo, 'member', now - 5 * DAY_MS, 0.5);

  const newest = Math.floor(now / 1000) - 600;
  seedBatches(state, demo.accountId, 64, newest);
  seedBatches(state, member.accountId, 5, newest);
}

function join(team: Team, person: Person, role: 'admin' | 'member', at: number, spent: number): void {
  addMember(team, person.sessionId, role, at).usageUsdMonthly = spent;
}

function setOwner(team: Team, at: number, spent: number): void {
  const owner = team.members.find((m) => m.role === 'owner');
  if (owner) {
    owner.joinedAt = at;
    owner.usageUsdMonthly = spent;
  }
}

function seedInvitations(state: SandboxState, team: Team, now: number): void {
  const I = SANDBOX_INVITATIONS;
  const seeds = [
    {
      token: I.pending,
      email: 'ana@sandbox.invalid',
      role: 'admin',
      status: 'pending',
      created: now - DAY_MS,
    },
    {
      token: I.expired,
      email: 'bo@sandbox.invalid',
      role: 'member',
      status: 'pending',
      created: now - 10 * DAY_MS,
    },
    {
      token: I.accepted,
      email: 'member@sandbox.invalid',
      role: 'member',
      status: 'accepted',
      created: now - 11 * DAY_MS,
    },
    {
      token: I.revoked,
      email: 'cy@sandbox.invalid',
      role: 'member',
      status: 'revoked',
      created: now - 2 * DAY_MS,
    },
  ] as const;
  for (const seed of seeds) {
    team.invitations.push({
      id: nextNumber(state, 'invitations'),
      email: seed.email,
      role: seed.role,
      status: seed.status,
      token: seed.token,
      createdAt: seed.created,
      expiresAt: seed.created + 7 * DAY_MS,
    });
  }
}
