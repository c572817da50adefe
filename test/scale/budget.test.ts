/**
 * The spend budget of one key across three replicas on one Redis (issue 23, findings 1 and 6):
 * every 2025 session and every 2026-07-28 request of a key reserves against one ledger in the
 * store, so concurrent paid calls landing on different replicas never spend past it.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type Cluster, startCluster } from './lib/cluster.js';
import type { RoundRobin } from './lib/proxy.js';

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

let cluster: Cluster;
let sandbox: Sandbox;
let proxy: RoundRobin;
const clients: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  // Three searches (0.018 USD) fit; a fourth (0.024) would not.
  cluster = await startCluster({ ORBIT_MAX_SPEND_USD: '0.02' });
  ({ sandbox, proxy } = cluster);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await cluster?.close();
});

async function legacyClient(key: string) {
  const client = new Client({ name: 'budget-2025', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(proxy.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

async function modernClient(key: string) {
  const client = new ModernClient({ name: 'budget-2026', version: '1' }, MODERN);
  await client.connect(
    new ModernTransport(new URL(proxy.url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

describe('one key’s spend budget across three replicas on one Redis', () => {
  it('four 2025 sessions and 2026-07-28 requests of one key, 16 concurrent searches: only 3 are sent', async () => {
    const key = sandbox.state.createKey({ label: 'budget', balance: 1_000, dailyRequestLimit: 1_000_000 });
    const callers = [
      ...(await Promise.all([1, 2, 3, 4].map(() => legacyClient(key)))),
      await modernClient(key),
    ];
    sandbox.clearRequests();
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => callers[i % callers.length]!('web_search', { query: `q${i}` })),
    );
    const sent = sandbox.requests.filter((r) => r.path === '/api/web');
    expect(sent).toHaveLength(3);
    expect(results.filter((r) => !r.isError)).toHaveLength(3);
    expect(JSON.stringify(results.find((r) => r.isError)!.content)).toMatch(
      /budget_exceeded.*Nothing was sent/,
    );
    // Every replica served some of them (the round-robin proxy spread the calls).
    expect(new Set(proxy.log.filter((f) => f.rpc === 'tools/call').map((f) => f.replica)).size).toBe(3);
    // Every session and the 2026-07-28 caller see one budget: spent 0.018, left 0.002, a reset time.
    for (const call of callers) {
      const budget = (await call('usage_get', {})).structuredContent?.budget as Record<string, unknown>;
      expect(budget).toMatchObject({ limit_usd: 0.02, spent_usd: 0.018, reserved_usd: 0, left_usd: 0.002 });
      expect(Date.parse(String(budget.window_resets_at))).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    }
    // Another key has its own budget.
    const other = await modernClient(
      sandbox.state.createKey({ label: 'other', balance: 1_000, dailyRequestLimit: 1_000_000 }),
    );
    expect((await other('web_search', { query: 'mine' })).isError).toBeFalsy();
  });
});
