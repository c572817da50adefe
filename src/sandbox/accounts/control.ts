import { type ManagementScope, type ManagementToken, mintManagementToken } from '../management/tokens.js';
import type { SandboxState } from '../state.js';
import { teamsOf } from '../teams/model.js';
import { planSubscription, setSubscription } from '../usage/subscriptions.js';
import { type PersonFixture, sessionCookie } from './fixtures.js';
import { addPerson, allPeople, type NewPerson, type Person, personByHandle } from './people.js';

/**
 * What tests (in process, through `sandbox.state`) and the `/__sandbox` control routes use to set
 * up accounts: more people, management tokens with any scopes, subscription plans.
 */

/** A person with their own account, API key, session cookie and subscription plan (default active). */
export function createSandboxPerson(state: SandboxState, spec: NewPerson & Partial<PersonFixture>): Person {
  const person = addPerson(state, spec);
  setSubscription(state, person.accountId, planSubscription(spec.plan ?? 'active', state.now()));
  return person;
}

export function mustFindPerson(state: SandboxState, handle: string): Person {
  const person = personByHandle(state, handle);
  if (!person) throw new Error(`no sandbox person "${handle}"`);
  return person;
}

export interface TokenSpec {
  /** Handle of the owner; default `demo`. */
  user?: string;
  scopes: readonly ManagementScope[];
  name?: string;
  expiresInDays?: number;
  /** Epoch ms, may lie in the past (an already expired token). */
  expiresAt?: number;
}

/** A management token for any person and scope set; the secret comes back once, here. */
export function createManagementToken(state: SandboxState, spec: TokenSpec): ManagementToken {
  return mintManagementToken(state, { ...spec, owner: mustFindPerson(state, spec.user ?? 'demo') });
}

/** Everyone in the sandbox with the credentials to act as them (sandbox secrets only). */
export function describePeople(state: SandboxState) {
  return allPeople(state).map((person) => ({
    handle: person.handle,
    sessionId: person.sessionId,
    sessionUUID: person.sessionUUID,
    displayName: person.displayName,
    email: person.email,
    account: person.accountId,
    apiKey: person.apiKey,
    session: person.session,
    cookie: sessionCookie(person.session),
    teams: teamsOf(state, person.sessionId).map((team) => ({
      uuid: team.uuid,
      id: team.id,
      name: team.name,
      role: team.members.find((m) => m.sessionId === person.sessionId)?.role,
    })),
  }));
}
