import { nextNumber, type Person } from '../accounts/people.js';
import { SANDBOX_WORD } from '../constants.js';
import type { SandboxState } from '../state.js';
import { pad } from '../util.js';

/** Management tokens (spec 1 §2.4): scoped bearer secrets owned by the session that made them. */

export const MANAGEMENT_SCOPES = ['usage:read', 'api_keys:read', 'api_keys:write'] as const;
export type ManagementScope = (typeof MANAGEMENT_SCOPES)[number];

const DAY_MS = 86_400_000;
const DEFAULT_TOKEN_DAYS = 90;
export const MAX_TOKEN_DAYS = 365;

export interface ManagementToken {
  id: string;
  name: string;
  secret: string;
  /** Fixed at creation: existing tokens never gain scopes. */
  scopes: readonly ManagementScope[];
  ownerSessionId: number;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

const store = (state: SandboxState) => state.collection<ManagementToken>('management.tokens');

export interface MintSpec {
  owner: Person;
  scopes: readonly ManagementScope[];
  name?: string;
  /** 1..365, default 90. */
  expiresInDays?: number;
  /** Epoch ms; overrides `expiresInDays` (the control route uses it to make expired tokens). */
  expiresAt?: number;
  /** A fixed secret (the seeded tokens); otherwise one from a counter. */
  secret?: string;
}

export function mintManagementToken(state: SandboxState, spec: MintSpec): ManagementToken {
  const n = nextNumber(state, 'management-tokens');
  const days = spec.expiresInDays ?? DEFAULT_TOKEN_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS) {
    throw new Error(`a management token lives 1..${MAX_TOKEN_DAYS} days, not ${days}`);
  }
  const now = state.now();
  const token: ManagementToken = {
    id: `mt_${pad(n)}`,
    name: spec.name ?? `token ${n}`,
    secret: spec.secret ?? `mt-${SANDBOX_WORD}-sbx-${pad(n)}`,
    scopes: [...new Set(spec.scopes)],
    ownerSessionId: spec.owner.sessionId,
    createdAt: now,
    expiresAt: spec.expiresAt ?? now + days * DAY_MS,
    revokedAt: null,
  };
  if (store(state).has(token.secret)) throw new Error('sandbox management token already exists');
  store(state).set(token.secret, token);
  return token;
}

export function revokeManagementToken(state: SandboxState, id: string): ManagementToken | undefined {
  const token = [...store(state).values()].find((t) => t.id === id);
  if (token && token.revokedAt === null) token.revokedAt = state.now();
  return token;
}

export const findManagementToken = (state: SandboxState, secret: string): ManagementToken | undefined =>
  store(state).get(secret);

/** `api_keys:write` includes `api_keys:read`; nothing else implies another scope. */
export function hasScope(token: ManagementToken, scope: ManagementScope): boolean {
  return (
    token.scopes.includes(scope) || (scope === 'api_keys:read' && token.scopes.includes('api_keys:write'))
  );
}
