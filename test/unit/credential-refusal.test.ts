import { describe, expect, it } from 'vitest';
import { explainRefusal } from '../../src/credential-refusal.js';
import { AuthenticationError, NotFoundError, PermissionError } from '../../src/errors.js';

const refusal = (Kind: typeof AuthenticationError | typeof PermissionError, code: string) =>
  new Kind('refused', {
    status: Kind === AuthenticationError ? 401 : 403,
    upstreamCode: code,
    requestId: 'req_1',
  });

describe('explainRefusal', () => {
  it('names the missing scope and how to make a token that has it', () => {
    const error = explainRefusal(refusal(PermissionError, 'insufficient_scope'), {
      credential: 'management_token',
      scope: 'api_keys:write',
    }) as PermissionError;
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.fix).toMatch(/never gain scopes.*`api_keys:write`.*ORBIT_MANAGEMENT_TOKEN/);
    expect(error.requestId).toBe('req_1');
    expect(error.status).toBe(403);
  });

  it('says the management API takes a management token, never an API key', () => {
    const error = explainRefusal(refusal(AuthenticationError, 'invalid_management_token'), {
      credential: 'management_token',
      scope: 'usage:read',
    }) as AuthenticationError;
    expect(error.fix).toMatch(/only a management token \(never an API key\).*`usage:read`/);
  });

  it('says inference routes take an API key, never a management token', () => {
    const error = explainRefusal(refusal(AuthenticationError, 'invalid_api_key'), {
      credential: 'api_key',
    }) as AuthenticationError;
    expect(error.fix).toMatch(/inference API key, never a management token.*ORBIT_API_KEY/);
  });

  it('says the teams API takes a session and how to provide one', () => {
    const error = explainRefusal(refusal(AuthenticationError, 'UNAUTHORIZED'), {
      credential: 'session',
    }) as AuthenticationError;
    expect(error.fix).toMatch(/signed-in session.*orbit_session.*ORBIT_SESSION/);
  });

  it('leaves role refusals and other errors as they are', () => {
    const forbidden = refusal(PermissionError, 'FORBIDDEN');
    expect(explainRefusal(forbidden, { credential: 'session' })).toBe(forbidden);
    const missing = new NotFoundError('no', { status: 404 });
    expect(explainRefusal(missing, { credential: 'management_token' })).toBe(missing);
  });
});
