import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PEOPLE as P, SANDBOX_MANAGEMENT_TOKENS as T } from '../../src/sandbox/index.js';
import { toolCatalog } from '../../tools/index.js';
import { credentials } from '../helpers/accounts.js';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

/**
 * Issue 32 item 1: once the platform accepted a write (2xx), the call is never reported as failed
 * and never told to call again. A reply that cannot be read answers as done (what was sent, the
 * status, the request id, what could be read, the read that shows what it did); a write that may
 * have run (a reply lost on the way back) says how to check. A paid call whose 2xx could not be
 * read counts what it reserved as spent. Every write tool's unreadable 2xx is tried in
 * test/fidelity/reply-mutation.test.ts (the write-reply class).
 */
process.env.ORBIT_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'orbit-write-accepted-'));

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    credentials: credentials({ key: P.demo.apiKey, token: T.all, session: P.demo.session }),
    config: { toolsets: 'all', maxSpendUsd: '1' },
  });
});
afterAll(async () => {
  await h.close();
});

const budgetOf = async () => out(await h.call('usage_get', {})).budget as Record<string, number>;

describe('a write the platform accepted', () => {
  it('teams_write update answered {team: {uuid, name, status}} (no role): done, not upstream_invalid', async () => {
    const created = await h.call('teams_write', { operation: 'create', name: 'Accepted One' });
    const team = out(created).data.uuid as string;
    h.sandbox.faults.add({
      match: { method: 'PATCH', path: `/api/teams/${team}` },
      reshape: { drop: ['team.role'] },
    });
    h.sandbox.clearRequests();
    const result = await h.call('teams_write', { operation: 'update', team, name: 'Accepted Two' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(/^Done: the platform accepted PATCH \/api\/teams\/\S+ \(HTTP 200, request id \S+\)/);
    expect(text).toMatch(/team\.role/);
    expect(text).toMatch(/call teams_read with operation "get", team "[^"]+" to see what it did/);
    expect(text).not.toMatch(/upstream_invalid|call again|Call again/);
    expect(out(result).accepted).toMatchObject({
      status: 200,
      request_id: expect.any(String),
      sent: { method: 'PATCH', arguments: { operation: 'update', name: 'Accepted Two' } },
      read: { team: { uuid: team, name: 'Accepted Two', status: 'active' } },
      check: { tool: 'teams_read', arguments: { operation: 'get', team } },
    });
    // Sent once, and it ran.
    expect(h.sandbox.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    const read = await h.call('teams_read', { operation: 'get', team });
    expect(out(read).data.name).toBe('Accepted Two');
  });

  it('a body that is not JSON answers as done, with its start as what could be read', async () => {
    h.sandbox.faults.add({
      match: { method: 'POST', path: '/api/v1/evals/projects' },
      reshape: { text: '<html>Bad gateway</html>' },
    });
    const result = await h.call('evals_write', { operation: 'projects.create', name: 'Unread' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(
      /^Done: the platform accepted POST \/api\/v1\/evals\/projects \(HTTP 20\d/,
    );
    expect(textOf(result)).toMatch(/not valid JSON/);
    expect(out(result).accepted).toMatchObject({
      read: '<html>Bad gateway</html>',
      check: { tool: 'evals_read', arguments: { operation: 'projects.list' } },
    });
  });

  it('a paid call whose 2xx is {} counts what it reserved as spent, and says the cost was not stated', async () => {
    const before = await budgetOf();
    h.sandbox.faults.add({ match: { path: '/api/v1/images' }, reshape: { replace: {} } });
    const result = await h.call('image_generate', {
      model: 'pixel-lite',
      prompt: 'a red fox',
      resolution: '512x512',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(/^Done: the platform accepted POST \/api\/v1\/images/);
    expect(textOf(result)).toMatch(/Cost not stated; [\d.]+ USD counted as spent\./);
    expect(textOf(result)).toMatch(/call usage_get to see what it did, and do not call image_generate again/);
    const after = await budgetOf();
    expect(after.spent_usd).toBeGreaterThan(before.spent_usd!);
    expect(after.reserved_usd).toBe(0);
  });
});

/** A paid GET data call that runs for real, then ends with `result` in place of its own (a bug of ours). */
async function dataCallEndingWith(result: unknown) {
  const dataCall = (await import('../../tools/data/data_call.js')).default;
  const run = dataCall.run.bind(dataCall);
  const spy = vi.spyOn(dataCall, 'run').mockImplementation(async (...args) => {
    await run(...args);
    return result as never;
  });
  try {
    return await h.call('data_call', {
      endpoint: 'maps.search',
      method: 'GET',
      input: { query: 'coffee', location: 'Lisbon', limit: 2 },
    });
  } finally {
    spy.mockRestore();
  }
}

describe('a paid read whose run ended', () => {
  it('a paid GET whose result fails its declared output keeps what it reserved as spent', async () => {
    // A paid GET records no write, so only the end of the run says the platform was reached.
    const before = await budgetOf();
    const result = await dataCallEndingWith('not a result');
    expect(result.isError).toBe(true);
    const after = await budgetOf();
    expect(after.spent_usd).toBeGreaterThan(before.spent_usd!);
    expect(after.reserved_usd).toBe(0);
  });

  it('names the read that shows what ran, never to call again (it was charged)', async () => {
    // No accepted write answers for a paid GET: the error's own fix must.
    const text = textOf(await dataCallEndingWith({ cost: 'not a number' }));
    expect(text).toMatch(/^Error \(output_invalid\): data_call produced a result/);
    expect(text).toMatch(/call usage_get to see what it did, and do not call data_call again for this/);
    expect(text).toMatch(/^Next: call usage_get\.$/m);
    expect(text).not.toMatch(/; call again/);
  });
});

describe('a write that may have run', () => {
  it('a reply lost on the way back says how to check, never to call again', async () => {
    h.sandbox.faults.add({ match: { method: 'POST', path: '/api/v1/evals/projects' }, dropReply: true });
    const result = await h.call('evals_write', { operation: 'projects.create', name: 'Lost' });
    expect(result.isError).toBe(true);
    const fix = textOf(result).match(/^Fix: (.*)$/m)?.[1];
    expect(fix).toMatch(
      /^POST \/api\/v1\/evals\/projects may have run on the platform: call evals_read with operation "projects\.list" to see what it did, and do not call evals_write again for this\.$/,
    );
    expect(textOf(result)).toMatch(/^Next: call evals_read with operation "projects\.list"\.$/m);
  });

  it('a read that fails before anything was written keeps its own fix', async () => {
    h.sandbox.faults.add({ match: { method: 'GET', path: '/api/teams' }, status: 503 });
    const result = await h.call('teams_write', { operation: 'update', team: 'Nobody', name: 'Still Nobody' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toMatch(/may have run|accepted/);
  });
});

describe('every tool that writes names the read that shows what it did', () => {
  /** Write tools without one, each with why. */
  const NO_CHECK: Record<string, string> = {
    x402_complete: 'no read shows a quote once it is paid; the answer says to check on the platform',
  };
  it('has a check (or a stated reason), and the check names a tool that reads', async () => {
    const tools = await toolCatalog.loadAll();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      const writes = Object.values(tool.operations).some((op) => op.nature !== 'read');
      if (!writes || tool.local) continue;
      if (NO_CHECK[tool.name]) {
        expect(tool.check, `${tool.name} has a check and a NO_CHECK reason`).toBeUndefined();
        continue;
      }
      expect(tool.check, `${tool.name} writes: give it a check`).toBeDefined();
      for (const operation of Object.keys(tool.operations)) {
        const check = tool.check!({ operation, team: 't', id: 'i' } as never);
        const reader = byName.get(check.tool);
        expect(reader, `${tool.name} ${operation}: ${check.tool} is no tool`).toBeDefined();
        expect(reader!.annotations.readOnlyHint, `${check.tool} reads`).toBe(true);
        expect(reader!.input.safeParse(check.arguments).success, `${tool.name} ${operation}: arguments`).toBe(
          true,
        );
      }
    }
  });
});
