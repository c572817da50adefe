/**
 * x402 and the spend budget (issue 23, findings 5 and 7): every completed payment is counted; an
 * exact payment (money this server moves) past the budget is refused unsent; a lightning or
 * address payment (money the person already moved) is never refused; a quote is replayed once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';
import { payQuote } from '../../helpers/x402-wallet.js';

process.env.ORBIT_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'orbit-x402-budget-'));

let sandbox: Sandbox;
let h: Harness;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  // The demo key (for usage_get); each search asks for a quote (0.006 USD) with payment x402.
  h = await startHarness({ sharedSandbox: sandbox, config: { maxSpendUsd: '0.01' } });
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
});

const pay = (paymentId: string, scheme: string) => payQuote(sandbox.url, paymentId, scheme);

const search = { endpoint: 'web.search', input: { query: 'orbital debris', maxResults: 3 }, payment: 'x402' };
async function quote(): Promise<string> {
  const result = await h.call('data_call', search);
  // A quote answers isError with the x402 PaymentRequired (the MCP binding) and orbit's own fields.
  expect(result.isError, textOf(result)).toBe(true);
  expect(out(result).x402Version).toBe(2);
  return out(result).payment.quote_id as string;
}
const replays = () => sandbox.requests.filter((r) => r.path === '/api/v1/data/web/search');
const budget = async () => out(await h.call('usage_get', {})).budget as Record<string, number>;

describe('x402 completions and the spend budget', () => {
  it('six concurrent completions of one paid quote send exactly one replay (finding 7)', async () => {
    const id = await quote();
    const wallet = await pay(id, 'lightning-l402');
    sandbox.clearRequests();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => h.call('x402_complete', { quote_id: id, preimage: wallet.preimage })),
    );
    expect(replays()).toHaveLength(1);
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    for (const refused of results.filter((r) => r.isError)) {
      expect(textOf(refused)).toMatch(/already being completed by another call|already paid for its call/);
    }
    // Counted, though the person paid it: 0.006 of 0.01.
    expect(await budget()).toMatchObject({ spent_usd: 0.006, reserved_usd: 0, left_usd: 0.004 });
  });

  it('counts a completion the person already paid even past the budget, and refuses an exact payment unsent (finding 5)', async () => {
    const [polled, exact] = [await quote(), await quote()];
    await pay(polled, 'base-usdc');
    const completed = await h.call('x402_complete', { quote_id: polled });
    expect(completed.isError, textOf(completed)).toBeFalsy();
    expect(await budget()).toMatchObject({ spent_usd: 0.012, left_usd: 0 });

    const wallet = await pay(exact, 'x402-exact');
    sandbox.clearRequests();
    const refused = await h.call('x402_complete', { quote_id: exact, x_payment: wallet.xPayment });
    expect(textOf(refused)).toMatch(
      /budget_exceeded\): This call would pass the spend budget: 0\.012 USD spent .* this call reserves 0\.006 USD \(quote pay_\w+'s price\)/,
    );
    expect(replays()).toHaveLength(0);
    expect(await budget()).toMatchObject({ spent_usd: 0.012, reserved_usd: 0 });
  });
});
