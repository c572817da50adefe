/** Key checks shared by replicas: against the sandbox platform, two checkers over one shared store. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential } from '../../../../../src/credentials.js';
import { createLogger } from '../../../../../src/log.js';
import { KeyChecker } from '../../../../../src/mcp/http/auth/key-check.js';
import { type Sandbox, startSandbox } from '../../../../../src/sandbox/index.js';
import { MemoryStore } from '../../../../../src/store/memory.js';
import { HttpClient } from '../../../../../src/upstream/client.js';

let sandbox: Sandbox;
let client: HttpClient;
const log = createLogger('silent');
const key = (value: string): Credential => ({ kind: 'api_key', value, source: 'request' });
const usageChecks = () => sandbox.requests.filter((r) => r.path === '/api/subscription/v1/usage').length;

beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  client = new HttpClient({
    baseUrl: sandbox.url,
    timeoutMs: 5_000,
    retry: { maxRetries: 0 },
    userAgent: 'test',
  });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe('KeyChecker with a shared store', () => {
  it('asks the platform once for a key, whichever replica sees it next', async () => {
    const store = new MemoryStore({ shared: true });
    const valid = key(sandbox.state.createKey({ label: 'shared check' }));
    const before = usageChecks();
    expect(await new KeyChecker(client, log, {}, store).check(valid, '10.0.0.1')).toBe('valid');
    expect(await new KeyChecker(client, log, {}, store).check(valid, '10.0.0.2')).toBe('valid');
    expect(usageChecks() - before).toBe(1);
    await store.close();
  });

  it('counts an address’s refused keys across replicas', async () => {
    const store = new MemoryStore({ shared: true });
    const a = new KeyChecker(client, log, { refusalsPerMinute: 3 }, store);
    const b = new KeyChecker(client, log, { refusalsPerMinute: 3 }, store);
    expect(await a.check(key('sk-orbit-sbx-made-up-000000000001'), '10.0.0.9')).toBe('refused');
    expect(await b.check(key('sk-orbit-sbx-made-up-000000000002'), '10.0.0.9')).toBe('refused');
    expect(await a.check(key('sk-orbit-sbx-made-up-000000000003'), '10.0.0.9')).toBe('refused');
    expect(await b.check(key('sk-orbit-sbx-made-up-000000000004'), '10.0.0.9')).toBe('throttled');
    await store.close();
  });
});
