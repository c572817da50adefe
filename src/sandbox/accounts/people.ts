import { SANDBOX_WORD } from '../constants.js';
import type { SandboxState } from '../state.js';
import { pad } from '../util.js';
import { type PersonFixture, type SubscriptionPlan, sandboxUuid } from './fixtures.js';

/**
 * Signed-in users ("sessions" in the spec: team members are identified by `sessionId` and
 * `sessionUUID`). Each has an account (balance, API keys), a session cookie and user settings.
 */
export interface Person {
  handle: string;
  sessionId: number;
  sessionUUID: string;
  displayName: string;
  email: string;
  accountId: string;
  apiKey: string;
  session: string;
  defaultTeamUuid: string | null;
  /** The user's own override; null means none. */
  responsesRetentionDays: number | null;
  /** Made on the first referral-link request. */
  referralCode: string | null;
}

const store = (state: SandboxState) => state.collection<Person>('accounts.people');

export const allPeople = (state: SandboxState): Person[] => [...store(state).values()];

export const personByHandle = (state: SandboxState, handle: string): Person | undefined =>
  store(state).get(handle);

export const personBySession = (state: SandboxState, session: string): Person | undefined =>
  allPeople(state).find((person) => person.session === session);

export const personById = (state: SandboxState, sessionId: number): Person | undefined =>
  allPeople(state).find((person) => person.sessionId === sessionId);

/** A named counter kept in the state, for ids that must be the same on every run. */
export function nextNumber(state: SandboxState, name: string): number {
  const counters = state.collection<number>('sandbox.counters');
  const next = (counters.get(name) ?? 0) + 1;
  counters.set(name, next);
  return next;
}

export interface NewPerson {
  handle: string;
  displayName?: string;
  email?: string;
  balanceUsd?: number;
  plan?: SubscriptionPlan;
}

/** Adds a person with their own account, API key and session; the fixtures pass fixed values. */
export function addPerson(state: SandboxState, spec: NewPerson & Partial<PersonFixture>): Person {
  if (store(state).has(spec.handle)) throw new Error(`sandbox person already exists: ${spec.handle}`);
  const sessionId = spec.sessionId ?? 100 + nextNumber(state, 'people');
  const accountId = spec.account ?? `acct_${spec.handle}`;
  // The demo key exists before any person does (the state makes it); it becomes the demo user's.
  const apiKey =
    spec.apiKey && state.getKey(spec.apiKey)
      ? spec.apiKey
      : state.createKey({
          ...(spec.apiKey ? { key: spec.apiKey } : {}),
          account: accountId,
          balance: spec.balanceUsd ?? 10,
          label: `${spec.handle} key`,
        });
  const person: Person = {
    handle: spec.handle,
    sessionId,
    sessionUUID: sandboxUuid('session', sessionId),
    displayName: spec.displayName ?? spec.handle,
    email: spec.email ?? `${spec.handle}@sandbox.invalid`,
    accountId,
    apiKey,
    session: spec.session ?? `sess-${SANDBOX_WORD}-sbx-${pad(sessionId)}`,
    defaultTeamUuid: null,
    responsesRetentionDays: null,
    referralCode: null,
  };
  store(state).set(person.handle, person);
  return person;
}
