import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE, SANDBOX_TEAMS } from '../../src/sandbox/accounts/fixtures.js';
import { asSession, bearer, send } from './accounts-helpers.js';
import { useSandbox } from './helpers.js';

const teamEnvelope = (status: number, code: string) => ({
  code,
  message: expect.any(String),
  details: null,
  status,
});

describe('default team (spec 1 §4.6)', () => {
  const sandbox = useSandbox();
  const setDefault = (body: unknown, handle: 'demo' | 'member' = 'demo') =>
    send(sandbox(), 'PATCH', '/api/user/default-team', { headers: asSession(handle), body });

  it('sets the default team by UUID or numeric id and clears it with null', async () => {
    expect((await setDefault({ team_uuid: SANDBOX_TEAMS.lab.uuid })).body).toEqual({
      ok: true,
      metadata: { default_team_uuid: SANDBOX_TEAMS.lab.uuid },
    });
    expect((await setDefault({ team_id: SANDBOX_TEAMS.main.id })).body.metadata.default_team_uuid).toBe(
      SANDBOX_TEAMS.main.uuid,
    );
    expect((await setDefault({})).body.metadata.default_team_uuid).toBe(SANDBOX_TEAMS.main.uuid);
    expect((await setDefault({ team_uuid: null })).body.metadata.default_team_uuid).toBeNull();
  });

  it('refuses a team the person is not in (403), an unknown one (404) and bad values (422)', async () => {
    expect((await setDefault({ team_uuid: SANDBOX_TEAMS.lab.uuid }, 'member')).body).toEqual(
      teamEnvelope(403, 'FORBIDDEN'),
    );
    expect((await setDefault({ team_id: 999 })).body).toEqual(teamEnvelope(404, 'NOT_FOUND'));
    for (const body of [{ team_id: 'one' }, { team_uuid: 7 }, { team: 'x' }]) {
      expect((await setDefault(body)).status, JSON.stringify(body)).toBe(422);
    }
  });
});

describe('responses retention (spec 1 §4.6, §8)', () => {
  const sandbox = useSandbox();
  const read = (handle: 'demo' | 'admin') =>
    send(sandbox(), 'GET', '/api/user/responses-retention', { headers: asSession(handle) });
  const write = (value: unknown) =>
    send(sandbox(), 'POST', '/api/user/responses-retention', {
      headers: asSession('demo'),
      body: { responsesRetentionDays: value },
    });

  it('stores an integer 0..365 per session and clears it with null', async () => {
    expect((await read('demo')).body).toEqual({ responsesRetentionDays: null });
    expect((await write(30)).body).toEqual({ ok: true, responsesRetentionDays: 30 });
    expect((await read('demo')).body).toEqual({ responsesRetentionDays: 30 });
    expect((await read('admin')).body).toEqual({ responsesRetentionDays: null });
    expect((await write(0)).status).toBe(200);
    expect((await write(365)).status).toBe(200);
    expect((await write(null)).body.responsesRetentionDays).toBeNull();
  });

  it('refuses values outside 0..365 and non-integers with 422 INVALID_INPUT', async () => {
    for (const value of [-1, 366, 1.5, '30', undefined]) {
      const res = await write(value);
      expect(res.status, String(value)).toBe(422);
      expect(res.body).toEqual(teamEnvelope(422, 'INVALID_INPUT'));
    }
  });
});

describe('referral link and session rules (spec 1 §4.6, §5)', () => {
  const sandbox = useSandbox();

  it('makes a referral link on the first call and returns the same one after', async () => {
    const first = await send(sandbox(), 'GET', '/api/subscription/referral-link', {
      headers: asSession('demo'),
    });
    expect(first.body).toEqual({ code: expect.any(String), url: expect.stringContaining(first.body.code) });
    const second = await send(sandbox(), 'GET', '/api/subscription/referral-link', {
      headers: asSession('demo'),
    });
    expect(second.body).toEqual(first.body);
    const other = await send(sandbox(), 'GET', '/api/subscription/referral-link', {
      headers: asSession('member'),
    });
    expect(other.body.code).not.toBe(first.body.code);
  });

  it('answers every user route 401 UNAUTHORIZED in the team envelope without a session', async () => {
    const routes = [
      ['PATCH', '/api/user/default-team'],
      ['GET', '/api/user/responses-retention'],
      ['POST', '/api/user/responses-retention'],
      ['GET', '/api/subscription/referral-link'],
    ] as const;
    for (const [method, path] of routes) {
      const res = await send(sandbox(), method, path, {
        headers: bearer(SANDBOX_PEOPLE.demo.apiKey),
        ...(method === 'GET' ? {} : { body: {} }),
      });
      expect(res.status, path).toBe(401);
      expect(res.body).toEqual(teamEnvelope(401, 'UNAUTHORIZED'));
    }
  });
});
