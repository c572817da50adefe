import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_LIMITS } from '../../../../../src/mcp/http/auth/session-bounds.js';
import { SessionRegistry } from '../../../../../src/mcp/http/sessions/registry.js';

const registries: SessionRegistry[] = [];
const registry = (limits: Partial<typeof DEFAULT_SESSION_LIMITS>) => {
  const made = new SessionRegistry({ ...DEFAULT_SESSION_LIMITS, ...limits });
  registries.push(made);
  return made;
};
afterEach(async () => {
  for (const made of registries.splice(0)) await made.closeAll();
});

/** Admits and opens a session, failing the test when it is refused. */
function open(sessions: SessionRegistry, owner: string, address: string, id: string, checked = true) {
  const admitted = sessions.admit(owner, address, checked);
  if (!admitted.ok) throw new Error(admitted.message);
  sessions.opened(admitted.session, id);
  return admitted.session;
}

describe('SessionRegistry', () => {
  it('refuses past the total, with 503, whoever asks', () => {
    const sessions = registry({ total: 2 });
    open(sessions, 'a', '1.1.1.1', 's1');
    open(sessions, 'b', '2.2.2.2', 's2');
    expect(sessions.admit('c', '3.3.3.3', true)).toMatchObject({ ok: false, status: 503 });
  });

  it('refuses past the bound per client address, with 429, whatever keys it brings', () => {
    const sessions = registry({ perAddress: 2 });
    open(sessions, 'a', '1.1.1.1', 's1');
    open(sessions, 'b', '1.1.1.1', 's2');
    expect(sessions.admit('c', '1.1.1.1', true)).toMatchObject({ ok: false, status: 429 });
    expect(sessions.admit('c', '2.2.2.2', true).ok).toBe(true);
  });

  it('holds keys the platform could not vouch for to a small shared bound', () => {
    const sessions = registry({ unchecked: 1 });
    open(sessions, 'a', '1.1.1.1', 's1', false);
    expect(sessions.admit('b', '2.2.2.2', false)).toMatchObject({ ok: false, status: 503 });
    expect(sessions.admit('b', '2.2.2.2', true).ok).toBe(true);
  });

  it('counts a slot from initialize on, so a burst cannot overshoot', () => {
    const sessions = registry({ total: 3 });
    const admitted = [1, 2, 3, 4].map(() => sessions.admit('a', '1.1.1.1', true).ok);
    expect(admitted).toEqual([true, true, true, false]);
  });

  it('finds a session only for the key that opened it', () => {
    const sessions = registry({});
    const mine = open(sessions, 'a', '1.1.1.1', 's1');
    expect(sessions.find('s1', 'a')).toBe(mine);
    expect(sessions.find('s1', 'b')).toBeUndefined();
  });
});
