import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P, SANDBOX_MANAGEMENT_TOKENS as T } from '../../src/sandbox/index.js';
import { OutputItem } from '../../tools/evals/replies.js';
import { credentials } from '../helpers/accounts.js';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

/**
 * Issue 32 item 4: every number the platform may send as a numeric string is read as its number
 * (costs, token counts, pagination, limits), and a paid answer whose cost cannot be read at all
 * says "Cost: not stated by the platform", never silently.
 */
process.env.ORBIT_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'orbit-numbers-'));

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    credentials: credentials({ key: P.demo.apiKey, token: T.all, session: P.demo.session }),
    config: { toolsets: 'all' },
  });
});
afterAll(async () => {
  await h.close();
});

const CHAT = '/api/v1/chat/completions';
const chat = () =>
  h.call('chat', { model: 'openai/gpt-sandbox', format: 'chat', stream: false, prompt: 'Say hello' });

describe('numbers sent as strings', () => {
  it("chat: the pricing extension's amount and cost, and the token counts, as strings", async () => {
    h.sandbox.faults.add({
      match: { path: CHAT },
      reshape: {
        stringify: [
          'x_orbit_pricing.amount',
          'x_orbit_pricing.cost',
          'usage.prompt_tokens',
          'usage.completion_tokens',
        ],
      },
    });
    const result = await chat();
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).cost).toMatchObject({ amount: expect.any(Number), currency: 'USD' });
    expect(out(result).usage).toMatchObject({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
    });
    expect(textOf(result)).not.toMatch(/Cost:? not stated/);
  });

  it("data_call: the summary's totalCost as a string, when nothing else states the cost", async () => {
    h.sandbox.faults.add({
      match: { path: '/api/v1/data/web/search' },
      reshape: { drop: ['x_orbit_pricing', 'cost'], set: { summary: { totalCost: '0.006' } } },
    });
    const result = await h.call('data_call', { endpoint: 'web.search', input: { query: 'orbital debris' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).cost).toBe(0.006);
  });

  it('teams_read members: pagination as strings', async () => {
    const listed = await h.call('teams_read', { operation: 'list' });
    const team = out(listed).data[0].uuid as string;
    h.sandbox.faults.add({
      match: { path: `/api/teams/${team}/members` },
      reshape: {
        stringify: ['pagination.page', 'pagination.limit', 'pagination.total', 'pagination.totalPages'],
      },
    });
    const result = await h.call('teams_read', { operation: 'members', team });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).data.pagination).toMatchObject({ page: 1, total: expect.any(Number) });
  });

  it("an eval output item's row number as a string (its scores are named by row)", () => {
    expect(OutputItem.parse({ item_index: '3', input: 'a question' }).item_index).toBe(3);
  });
});

describe('a cost that cannot be read at all', () => {
  it('is said: "Cost: not stated by the platform", never silent', async () => {
    h.sandbox.faults.add({
      match: { path: CHAT },
      reshape: { set: { 'x_orbit_pricing.amount': 'about a cent', 'x_orbit_pricing.cost': 'about a cent' } },
    });
    const result = await chat();
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).cost).toBeUndefined();
    expect(textOf(result)).toMatch(/\nCost: not stated by the platform[.;]/);
  });
});
