import type { Credential } from '../../src/credentials.js';

/** A server's credentials as a person would configure them (env), any of the three kinds. */
export function credentials(given: { key?: string; token?: string; session?: string }): Credential[] {
  return [
    ...(given.key ? [{ kind: 'api_key' as const, value: given.key, source: 'env' as const }] : []),
    ...(given.token
      ? [{ kind: 'management_token' as const, value: given.token, source: 'env' as const }]
      : []),
    ...(given.session ? [{ kind: 'session' as const, value: given.session, source: 'env' as const }] : []),
  ];
}
