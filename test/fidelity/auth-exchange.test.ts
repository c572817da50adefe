import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeCode } from '../../src/auth/shortcut.js';
import type { Reshape } from '../../src/sandbox/drift/reshape.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { shortcutCode } from '../sandbox/oauth-helpers.js';

/**
 * Issue 25, reply mutation for auth_login: its one platform reply is the key exchange of the OAuth
 * shortcut (spec 1 §4.2 step 3, fields in §2.2), read by `exchangeCode` before the tool answers.
 * The code is single-use and the key is minted by then, so a reply that drops or retypes a field
 * the sign-in does not need must still give the key: one lost here is a key made and never held.
 * Every mutation of the captured reply is tried (the space is small): each field left out (`key`
 * and `access_token` carry the same key, so either alone is enough), an unknown field added, and
 * each field given a value of another type. A reply with no usable key is refused.
 */
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

const EXCHANGE = '/api/v1/auth/keys';

async function exchange(change?: Reshape) {
  const { code, verifier } = await shortcutCode(sandbox);
  if (change) sandbox.faults.add({ match: { path: EXCHANGE }, reshape: change });
  const result = await exchangeCode(`${sandbox.url}${EXCHANGE}`, code, verifier);
  expect(sandbox.faults.list(), 'the exchange was not called').toHaveLength(0);
  return result;
}

describe('the OAuth key exchange reply is read tolerantly', () => {
  it('gives the key under every mutation that leaves one', async () => {
    const plain = await exchange();
    expect(plain).toMatchObject({ ok: true, key: expect.stringMatching(/^sk-/) });
    // The fields the reply has, as sent (a fresh flow, to read the raw body).
    const { code, verifier } = await shortcutCode(sandbox);
    const raw = (await (
      await fetch(`${sandbox.url}${EXCHANGE}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'authorization_code', code, code_verifier: verifier }),
      })
    ).json()) as Record<string, unknown>;
    expect(Object.keys(raw)).toEqual(expect.arrayContaining(['key', 'access_token', 'scope', 'user_id']));
    // Every field retyped, one at a time: `key` or `access_token` retyped leaves the other.
    const mutations: Reshape[] = [
      ...Object.keys(raw).map((field) => ({ drop: [field] })),
      { set: { x_surprise: { unexpected: true } } },
      ...Object.keys(raw).flatMap((field) => [
        { set: { [field]: null } },
        { set: { [field]: ['models.read', 7] } },
      ]),
    ];
    for (const change of mutations) {
      const result = await exchange(change);
      expect(result, JSON.stringify(change)).toMatchObject({ ok: true, key: expect.stringMatching(/^sk-/) });
    }
  });

  it('reads scope, and user_id as a string even when it comes as a number', async () => {
    const result = await exchange({ set: { user_id: 42 } });
    expect(result).toMatchObject({ ok: true, scope: 'models.read api.use', userId: '42' });
  });

  it('refuses a reply with no usable key, naming it', async () => {
    const result = await exchange({ drop: ['key'], set: { access_token: 7 } });
    // Accepted (2xx): a key may have been made, so the sign-in's fix says where to look for it.
    expect(result).toEqual({
      ok: false,
      error: 'invalid_response',
      description: 'The platform accepted the exchange (HTTP 200) but sent no key this server could read.',
      mayHaveIssued: true,
    });
  });
});
