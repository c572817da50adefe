import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';
import { payQuote } from '../helpers/x402-wallet.js';

// Issue 25: a challenge with one odd rail must not refuse the whole quote.
process.env.ORBIT_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'orbit-x402-rails-'));

let sandbox: Sandbox;
let h: Harness;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  h = await startHarness({ credentials: [], sharedSandbox: sandbox });
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
});

const SEARCH = '/api/v1/data/web/search';
// The sandbox's rails, in order: x402-exact, x402-solana-usdc, nano-exact, base-usdc, nano, lightning-l402.
const search = { endpoint: 'web.search', input: { query: 'orbital debris', maxResults: 2 } };
/** A quote answers isError with the x402 PaymentRequired (the MCP binding), orbit's payment beside it. */
function expectQuote(result: Awaited<ReturnType<Harness['call']>>): void {
  expect(result.isError, textOf(result)).toBe(true);
  expect(out(result).x402Version).toBe(2);
}
const schemes = (payment: { rails: Array<{ scheme: string }> }) => payment.rails.map((r) => r.scheme);

describe('x402 challenge read rail by rail', () => {
  it('keeps a lightning rail without payTo (it pays an invoice)', async () => {
    sandbox.faults.add({ match: { path: SEARCH }, reshape: { drop: ['payment.accepted.5.payTo'] } });
    const result = await h.call('data_call', search);
    expectQuote(result);
    const payment = out(result).payment;
    expect(schemes(payment)).toContain('lightning-l402');
    expect(payment.not_usable).toBeUndefined();
  });

  it('reads a lightning rail whose payTo is null as one without it; x402_complete takes its preimage', async () => {
    // Issue 32: the platform's reference sends `"payTo": null` on the rail that pays an invoice.
    sandbox.faults.add({ match: { path: SEARCH }, reshape: { set: { 'payment.accepted.5.payTo': null } } });
    const result = await h.call('data_call', search);
    expectQuote(result);
    const payment = out(result).payment;
    expect(schemes(payment)).toContain('lightning-l402');
    expect(payment.not_usable).toBeUndefined();
    const wallet = await payQuote(sandbox.url, payment.quote_id, 'lightning-l402');
    const done = await h.call('x402_complete', { quote_id: payment.quote_id, preimage: wallet.preimage });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(out(done)).toMatchObject({ status: 'completed', tool: 'data_call' });
  });

  it('leaves out and names the rails that cannot be paid; x402_complete works on the rest', async () => {
    sandbox.faults.add({
      match: { path: SEARCH },
      reshape: {
        drop: ['payment.accepted.3.payTo'],
        set: { 'payment.accepted.0.amount': { odd: true }, 'payment.accepted.1.scheme': 7 },
      },
    });
    const result = await h.call('data_call', search);
    expectQuote(result);
    const payment = out(result).payment;
    expect(schemes(payment)).toEqual(['nano-exact', 'nano', 'lightning-l402']);
    expect(payment.not_usable).toMatch(
      /^3 rails not usable: x402-exact amount: .+; \S+ scheme: .+; base-usdc has no payTo$/,
    );
    // The person's text follows the binding's `x402/error` item.
    expect(textOf(result)).toContain('base-usdc has no payTo');
    await payQuote(sandbox.url, payment.quote_id, 'nano');
    const done = await h.call('x402_complete', { quote_id: payment.quote_id });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(out(done)).toMatchObject({ status: 'completed', tool: 'data_call' });
  });

  it('is upstream_invalid only when no rail is left', async () => {
    sandbox.faults.add({
      match: { path: SEARCH },
      reshape: { drop: ['payment.accepted.*.payTo', 'payment.accepted.*.invoice'] },
    });
    const result = await h.call('data_call', search);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/upstream_invalid/);
    expect(textOf(result)).toMatch(/no rail can be paid \(6 rails not usable: x402-exact has no payTo/);
  });
});
