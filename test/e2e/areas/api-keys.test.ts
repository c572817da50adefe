import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretFingerprint } from '../../../src/auth/secret-file.js';
import {
  SANDBOX_PEOPLE as P,
  type Sandbox,
  startSandbox,
  SANDBOX_MANAGEMENT_TOKENS as T,
} from '../../../src/sandbox/index.js';
import { MemoryStore } from '../../../src/store/memory.js';
import { IdempotencyKeys } from '../../../src/upstream/idempotency.js';
import { credentials } from '../../helpers/accounts.js';
import { type Harness, type HarnessOptions, out, startHarness, textOf } from '../../helpers/harness.js';

const KEYS = '/api/management/v1/api-keys';
let sandbox: Sandbox;
let configDir: string;
const savedConfigDir = process.env.ORBIT_CONFIG_DIR;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  configDir = mkdtempSync(join(tmpdir(), 'orbit-keys-config-'));
  process.env.ORBIT_CONFIG_DIR = configDir;
});
afterAll(async () => {
  await sandbox.close();
  rmSync(configDir, { recursive: true, force: true });
  if (savedConfigDir === undefined) delete process.env.ORBIT_CONFIG_DIR;
  else process.env.ORBIT_CONFIG_DIR = savedConfigDir;
});

const demoKeys = () => sandbox.state.keysOf(P.demo.account);
const posts = () => sandbox.requests.filter((r) => r.method === 'POST' && r.path === KEYS);

async function withServer<T>(
  token: string | undefined,
  run: (h: Harness) => Promise<T>,
  options: HarnessOptions = {},
) {
  const h = await startHarness({
    credentials: credentials({ key: P.demo.apiKey, token }),
    sharedSandbox: sandbox,
    ...options,
    config: { toolsets: 'keys', ...options.config },
  });
  try {
    return await run(h);
  } finally {
    await h.close();
  }
}

describe('api_keys_read', () => {
  it("lists the account's keys with the management token, never their secrets", async () => {
    sandbox.clearRequests();
    const result = await withServer(T.keysRead, (h) => h.call('api_keys_read', { operation: 'list' }));
    expect(result.isError).toBeFalsy();
    const keys = out(result).data as { id: string; key_preview: string }[];
    expect(keys.length).toBeGreaterThan(0);
    expect(keys[0]).toMatchObject({ id: expect.any(String), key_preview: expect.stringContaining('…') });
    expect(JSON.stringify(result)).not.toContain(P.demo.apiKey);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: KEYS });
    expect(sandbox.requests[0]?.headers.authorization).toBe(`Bearer ${T.keysRead}`);
    const one = await withServer(T.keysRead, (h) =>
      h.call('api_keys_read', { operation: 'get', id: keys[0]!.id }),
    );
    expect(out(one).data).toMatchObject({ id: keys[0]!.id });
  });

  it('names the scope a token lacks, and how to make one that has it', async () => {
    const result = await withServer(T.usage, (h) => h.call('api_keys_read', { operation: 'list' }));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /forbidden, HTTP 403[\s\S]*insufficient_scope[\s\S]*create a new one with the `api_keys:read` scope/,
    );
  });

  it('says the management API takes a management token, for expired tokens and API keys alike', async () => {
    for (const token of [T.expired, T.revoked, P.demo.apiKey]) {
      const result = await withServer(token, (h) => h.call('api_keys_read', { operation: 'list' }));
      expect(textOf(result)).toMatch(
        /unauthorized, HTTP 401[\s\S]*invalid_management_token[\s\S]*only a management token \(never an API key\)/,
      );
    }
  });

  it('names the missing management token and how to provide it', async () => {
    const result = await withServer(undefined, (h) => h.call('api_keys_read', { operation: 'list' }));
    expect(textOf(result)).toMatch(
      /missing_credential[\s\S]*ORBIT_MANAGEMENT_TOKEN[\s\S]*orbit-mcp login --management-token/,
    );
  });

  it('refuses get without an id before sending', async () => {
    sandbox.clearRequests();
    const result = await withServer(T.all, (h) => h.call('api_keys_read', { operation: 'get' }));
    expect(textOf(result)).toMatch(/invalid_input\): Operation "get" needs `id`/);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('api_keys_write create', () => {
  it('writes the new secret to a 0600 file and keeps it out of the result, progress and logs', async () => {
    const before = demoKeys().length;
    sandbox.clearRequests();
    const progress: Progress[] = [];
    const logs: string[] = [];
    const stderr: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      stderr.push(String(chunk));
      return write(chunk, ...(rest as []));
    }) as typeof process.stderr.write;
    const result = await withServer(
      T.keysWrite,
      async (h) => {
        h.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
          logs.push(JSON.stringify(n.params));
        });
        await h.client.setLoggingLevel('debug');
        return h.call(
          'api_keys_write',
          { operation: 'create', name: 'ci', daily_usd_limit: 5, expires_at: '2099-01-01T00:00:00Z' },
          { onprogress: (p) => progress.push(p) },
        );
      },
      { config: { logLevel: 'debug' } },
    ).finally(() => {
      process.stderr.write = write;
    });
    expect(result.isError).toBeFalsy();
    expect(demoKeys()).toHaveLength(before + 1);
    const data = out(result).data;
    const secret = demoKeys().find((k) => k.id === data.key.id)!.key;
    expect(data.key).toMatchObject({
      name: 'ci',
      daily_usd_limit: 5,
      expires_at: '2099-01-01T00:00:00.000Z',
    });
    expect(data.key.key).toBeUndefined();
    const host = new URL(sandbox.url).host.replace(':', '_');
    expect(data.secret_file).toBe(join(configDir, 'api-keys', host, `${data.key.id}.key`));
    expect(readFileSync(data.secret_file, 'utf8')).toBe(`${secret}\n`);
    expect(statSync(data.secret_file).mode & 0o777).toBe(0o600);
    expect(data.fingerprint).toBe(secretFingerprint(secret));
    expect(data.replayed).toBe(false);
    expect(textOf(result)).toContain(data.secret_file);
    for (const seen of [JSON.stringify(result), JSON.stringify(progress), logs.join('\n'), stderr.join('')])
      expect(seen).not.toContain(secret);
    // The capture saw the server's audit line, so a leak would have been seen too.
    expect(logs.join('\n')).toContain(`Created API key ${data.key.id} (${data.fingerprint})`);
    expect(stderr.join('')).toContain(`Created API key ${data.key.id}`);
    const sent = posts()[0]!;
    expect(sent.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.json).toEqual({ name: 'ci', daily_usd_limit: 5, expires_at: '2099-01-01T00:00:00Z' });
  });

  it('makes one key when the reply is lost and the create is retried with the same Idempotency-Key', async () => {
    const before = demoKeys().length;
    sandbox.clearRequests();
    sandbox.faults.add({ dropReply: true, match: { method: 'POST', path: KEYS } });
    const result = await withServer(T.all, (h) =>
      h.call('api_keys_write', { operation: 'create', name: 'retried' }),
    );
    expect(result.isError).toBeFalsy();
    expect(out(result).data.replayed).toBe(true);
    expect(demoKeys()).toHaveLength(before + 1);
    const [first, second] = posts();
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  });

  it('reuses the key when the same create is asked again after every retry lost its reply', async () => {
    const before = demoKeys().length;
    sandbox.clearRequests();
    sandbox.faults.add({ dropReply: true, times: 2, match: { method: 'POST', path: KEYS } });
    await withServer(T.all, async (h) => {
      const lost = await h.call('api_keys_write', {
        operation: 'create',
        name: 'twice',
        daily_request_limit: 10,
      });
      expect(lost.isError).toBe(true);
      expect(textOf(lost)).toMatch(/connection_failed/);
      const again = await h.call('api_keys_write', {
        operation: 'create',
        name: 'twice',
        daily_request_limit: 10,
      });
      expect(out(again).data.replayed).toBe(true);
    });
    expect(demoKeys()).toHaveLength(before + 1);
    expect(new Set(posts().map((r) => r.headers['idempotency-key'])).size).toBe(1);
    // A create asked for on purpose after an answer is a new key.
    await withServer(T.all, (h) =>
      h.call('api_keys_write', { operation: 'create', name: 'twice', daily_request_limit: 10 }),
    );
    expect(demoKeys()).toHaveLength(before + 2);
  });

  it('checks the fields before sending', async () => {
    sandbox.clearRequests();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ operation: 'create' }, /needs `name`/],
      [
        { operation: 'create', name: 'x', expires_at: '2001-01-01T00:00:00Z' },
        /`expires_at` must be a future/,
      ],
      [
        { operation: 'create', name: 'x', expires_at: '2099-01-01' },
        /`expires_at` must be a future ISO 8601 time with a timezone/,
      ],
      [{ operation: 'create', name: 'x', daily_usd_limit: -1 }, /`daily_usd_limit` cannot be negative/],
      [
        { operation: 'create', name: 'x', daily_request_limit: 1.5 },
        /`daily_request_limit` must be a whole number/,
      ],
      [{ operation: 'create', name: 'x', disabled: true }, /belong to update/],
      [{ operation: 'update', id: 'k' }, /needs something to change/],
      [{ operation: 'revoke' }, /needs `id`/],
    ];
    await withServer(T.all, async (h) => {
      for (const [args, message] of cases) {
        const result = await h.call('api_keys_write', args);
        expect(result.isError, JSON.stringify(args)).toBe(true);
        expect(textOf(result)).toMatch(message);
      }
    });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('needs the api_keys:write scope, and says so', async () => {
    const result = await withServer(T.keysRead, (h) =>
      h.call('api_keys_write', { operation: 'create', name: 'x' }),
    );
    expect(textOf(result)).toMatch(/insufficient_scope[\s\S]*`api_keys:write`/);
  });
});

/** An api_keys_write call with the management token: its result and what the person was asked. */
async function writeAsking(args: Record<string, unknown>, options: HarnessOptions) {
  let elicited: string[] = [];
  const result = await withServer(
    T.all,
    async (h) => {
      elicited = h.elicited;
      return h.call('api_keys_write', args);
    },
    options,
  );
  return { result, elicited };
}

/** A create over HTTP, where the secret goes to the person through a form. */
const createOverHttp = (name: string, options: HarnessOptions) =>
  writeAsking({ operation: 'create', name }, { trust: 'remote', ...options });

describe('api_keys_write create over HTTP', () => {
  it('refuses when the client cannot show the person a form, creating nothing', async () => {
    const before = demoKeys().length;
    const result = await withServer(
      T.all,
      (h) => h.call('api_keys_write', { operation: 'create', name: 'remote' }),
      {
        trust: 'remote',
      },
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Over HTTP[\s\S]*no key was created[\s\S]*account settings/);
    expect(demoKeys()).toHaveLength(before);
  });

  it('shows the secret to the person through the form only, never in the result', async () => {
    const before = demoKeys().length;
    const { result, elicited } = await createOverHttp('remote', {
      answerForm: () => ({ action: 'accept', content: { confirm: true } }),
    });
    expect(demoKeys()).toHaveLength(before + 1);
    const data = out(result).data;
    const secret = demoKeys().find((k) => k.id === data.key.id)!.key;
    expect(elicited[0]).toMatch(/Create the API key "remote"/);
    expect(elicited[1]).toContain(secret);
    expect(data.secret_file).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it('creates nothing when the person declines', async () => {
    const before = demoKeys().length;
    const result = await withServer(
      T.all,
      (h) => h.call('api_keys_write', { operation: 'create', name: 'no' }),
      {
        trust: 'remote',
        answerForm: () => ({ action: 'decline' }),
      },
    );
    expect(textOf(result)).toMatch(/aborted\): The person declined; no key was created/);
    expect(demoKeys()).toHaveLength(before);
  });

  it('refuses an answer that does not fit the form asked, and creates nothing', async () => {
    const before = demoKeys().length;
    const result = await withServer(
      T.all,
      (h) => h.call('api_keys_write', { operation: 'create', name: 'odd answer' }),
      { trust: 'remote', answerForm: () => ({ action: 'accept', content: { confirm: 'yes' } }) },
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/does not match requested schema/);
    expect(demoKeys()).toHaveLength(before);
  });
});

describe('api_keys_write update and revoke', () => {
  const makeKey = async (name: string) =>
    out(await withServer(T.all, (h) => h.call('api_keys_write', { operation: 'create', name }))).data.key
      .id as string;

  it('updates limits and disables a key', async () => {
    const id = await makeKey('to-update');
    sandbox.clearRequests();
    const result = await withServer(T.all, (h) =>
      h.call('api_keys_write', {
        operation: 'update',
        id,
        disabled: true,
        daily_request_limit: 100,
        name: 'renamed',
      }),
    );
    expect(out(result).data).toMatchObject({ id, name: 'renamed', disabled: true, daily_request_limit: 100 });
    expect(sandbox.requests[0]).toMatchObject({ method: 'PATCH', path: `${KEYS}/${id}` });
  });

  it('revokes a key once the person confirms, showing what will happen', async () => {
    const id = await makeKey('to-revoke');
    const { result, elicited: asked } = await writeAsking(
      { operation: 'revoke', id },
      { answerForm: () => ({ action: 'accept', content: { confirm: true } }) },
    );
    expect(out(result).data).toEqual({ id, deleted: true });
    expect(asked[0]).toMatch(new RegExp(`Revoke the API key ${id}  to-revoke .*stops working`));
    expect(demoKeys().some((k) => k.id === id)).toBe(false);
  });

  it('changes nothing when the person declines', async () => {
    const id = await makeKey('kept');
    sandbox.clearRequests();
    const result = await withServer(
      T.all,
      (h) => h.call('api_keys_write', { operation: 'revoke', id, confirm: id }),
      {
        answerForm: () => ({ action: 'decline' }),
      },
    );
    expect(textOf(result)).toMatch(/aborted\): The person declined the confirmation; nothing was changed/);
    expect(sandbox.requests.some((r) => r.method === 'DELETE')).toBe(false);
    expect(demoKeys().some((k) => k.id === id)).toBe(true);
  });

  it('needs confirm equal to the key id when the client cannot ask', async () => {
    const id = await makeKey('by-argument');
    await withServer(T.all, async (h) => {
      const missing = await h.call('api_keys_write', { operation: 'revoke', id });
      expect(textOf(missing)).toMatch(
        new RegExp(`needs confirmation[\\s\\S]*confirm: "${id}" \\(the key id\\)`),
      );
      const wrong = await h.call('api_keys_write', { operation: 'revoke', id, confirm: 'yes' });
      expect(textOf(wrong)).toMatch(/`confirm` is not the key id/);
      expect(demoKeys().some((k) => k.id === id)).toBe(true);
      const done = await h.call('api_keys_write', { operation: 'revoke', id, confirm: id });
      expect(out(done).data.deleted).toBe(true);
    });
    expect(demoKeys().some((k) => k.id === id)).toBe(false);
  });

  it("reports another account's key as not found", async () => {
    const other = sandbox.state.keysOf(P.member.account)[0]!.id;
    const result = await withServer(T.all, (h) =>
      h.call('api_keys_write', { operation: 'revoke', id: other, confirm: other }),
    );
    expect(textOf(result)).toMatch(/not_found, HTTP 404/);
  });
});

describe('api_keys_write create across replicas', () => {
  it('replays the create on the replica that gets the retry: one key, whichever replica confirms', async () => {
    // Two replicas on one shared store; each holds Idempotency-Keys there, not in its own memory.
    const store = new MemoryStore({ shared: true });
    const before = demoKeys().length;
    const { result: first } = await createOverHttp('across', {
      idempotency: new IdempotencyKeys(store),
      // The person agrees, then the connection is lost before the secret is shown: the client
      // calls again, and its retry reaches the other replica.
      answerForm: (message) => {
        if (message.startsWith('Create the API key')) return { action: 'accept', content: { confirm: true } };
        throw new Error('connection lost');
      },
    });
    expect(first.isError).toBe(true);
    expect(demoKeys()).toHaveLength(before + 1);

    const { result: retried, elicited: shown } = await createOverHttp('across', {
      idempotency: new IdempotencyKeys(store),
      answerForm: () => ({ action: 'accept', content: { confirm: true } }),
    });
    expect(retried.isError, textOf(retried)).toBeFalsy();
    expect(out(retried).data).toMatchObject({ replayed: true });
    expect(demoKeys()).toHaveLength(before + 1);
    const secret = demoKeys().find((k) => k.id === out(retried).data.key.id)!.key;
    expect(shown[1]).toContain(secret);
  });
});
