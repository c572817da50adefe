import { SANDBOX_DEMO_KEY, SANDBOX_WORD } from '../constants.js';

/**
 * The people, team, invitations and management tokens every fresh sandbox has, as fixed strings,
 * so tests and offline users can sign in as any role without a set-up step. All of them are
 * sandbox-only secrets; nothing here works against the platform.
 */

/** The session cookie's name. The spec names no cookie; the sandbox uses this one. */
export const SESSION_COOKIE = `${SANDBOX_WORD}_session`;

export type SubscriptionPlan = 'active' | 'grace' | 'inactive' | 'trial' | 'degraded';

export interface PersonFixture {
  sessionId: number;
  displayName: string;
  email: string;
  account: string;
  apiKey: string;
  /** The value of the `orbit_session` cookie. */
  session: string;
  balanceUsd: number;
  plan: SubscriptionPlan;
}

const sessionOf = (handle: string) => `sess-${SANDBOX_WORD}-sandbox-${handle}`;
const keyOf = (handle: string) => `sk-${SANDBOX_WORD}-sandbox-${handle}`;

export const SANDBOX_PEOPLE = {
  /** Owns the demo key and the main team; an active subscriber. */
  demo: {
    sessionId: 1,
    displayName: 'Demo User',
    email: 'demo@sandbox.invalid',
    account: 'acct_demo',
    apiKey: SANDBOX_DEMO_KEY,
    session: sessionOf('demo'),
    balanceUsd: 25,
    plan: 'active',
  },
  /** Admin of the main team, owner of the lab team; one quota lookup of theirs is unavailable. */
  admin: {
    sessionId: 2,
    displayName: 'Ada Admin',
    email: 'admin@sandbox.invalid',
    account: 'acct_admin',
    apiKey: keyOf('admin'),
    session: sessionOf('admin'),
    balanceUsd: 40,
    plan: 'degraded',
  },
  /** Plain member of the main team; subscription in its grace period. */
  member: {
    sessionId: 3,
    displayName: 'Max Member',
    email: 'member@sandbox.invalid',
    account: 'acct_member',
    apiKey: keyOf('member'),
    session: sessionOf('member'),
    balanceUsd: 5,
    plan: 'grace',
  },
  /** In no team; no subscription (the usage routes still answer 200). */
  outsider: {
    sessionId: 4,
    displayName: 'Olga Outsider',
    email: 'outsider@sandbox.invalid',
    account: 'acct_outsider',
    apiKey: keyOf('outsider'),
    session: sessionOf('outsider'),
    balanceUsd: 10,
    plan: 'inactive',
  },
  /** On a token-based trial (`usageUnits: tokens`). */
  trial: {
    sessionId: 5,
    displayName: 'Tess Trial',
    email: 'trial@sandbox.invalid',
    account: 'acct_trial',
    apiKey: keyOf('trial'),
    session: sessionOf('trial'),
    balanceUsd: 0,
    plan: 'trial',
  },
} as const satisfies Record<string, PersonFixture>;

export type PersonHandle = keyof typeof SANDBOX_PEOPLE;

/** `Cookie` header value that signs in as one of the seeded people. */
export const sessionCookie = (session: string): string => `${SESSION_COOKIE}=${session}`;

/** Management tokens of the demo user, one per scope set, plus an expired and a revoked one. */
export const SANDBOX_MANAGEMENT_TOKENS = {
  usage: `mt-${SANDBOX_WORD}-sandbox-usage`,
  keysRead: `mt-${SANDBOX_WORD}-sandbox-keys-read`,
  keysWrite: `mt-${SANDBOX_WORD}-sandbox-keys-write`,
  all: `mt-${SANDBOX_WORD}-sandbox-all`,
  expired: `mt-${SANDBOX_WORD}-sandbox-expired`,
  revoked: `mt-${SANDBOX_WORD}-sandbox-revoked`,
  /** The member's own token with every scope, for cross-account checks. */
  memberAll: `mt-${SANDBOX_WORD}-sandbox-member-all`,
} as const;

/** Deterministic UUIDs: a kind marker in the first group, a counter in the last. */
export function sandboxUuid(kind: 'session' | 'team' | 'conversation', n: number): string {
  const marker = { session: '5e551011', team: '7ea30000', conversation: 'c0a70000' }[kind];
  return `${marker}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export const SANDBOX_TEAMS = {
  /** demo owns it, admin is admin, member is member. */
  main: {
    id: 1,
    uuid: sandboxUuid('team', 1),
    name: 'Sandbox Team',
    inviteLinkToken: `link-${SANDBOX_WORD}-sandbox-main`,
  },
  /** admin owns it, demo is a member; its invite link is disabled. */
  lab: {
    id: 2,
    uuid: sandboxUuid('team', 2),
    name: 'Research Lab',
    inviteLinkToken: `link-${SANDBOX_WORD}-sandbox-lab`,
  },
} as const;

/** Invitations to the main team, one per status. */
export const SANDBOX_INVITATIONS = {
  pending: `inv-${SANDBOX_WORD}-sandbox-pending`,
  expired: `inv-${SANDBOX_WORD}-sandbox-expired`,
  accepted: `inv-${SANDBOX_WORD}-sandbox-accepted`,
  revoked: `inv-${SANDBOX_WORD}-sandbox-revoked`,
} as const;
