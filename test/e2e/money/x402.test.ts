import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTES_FILE } from '../../../src/payments/quote-file.js';
import { SANDBOX_DEMO_KEY } from '../../../src/sandbox/constants.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';
import { payQuote } from '../../helpers/x402-wallet.js';

// Quotes of a person's own process are kept in the config folder: a private one for this file.
const configDir = mkdtempSync(join(tmpdir(), 'orbit-x402-config-'));
process.env.ORBIT_CONFIG_DIR = configDir;

let clock = Date.now();
let sandbox: Sandbox;
/** No key at all: every payable call asks for a quote. */
let h: Harness;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true, now: () => clock });
  h = await startHarness({ credentials: [], sharedSandbox: sandbox });
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
});

const pay = (paymentId: string, scheme: string) => payQuote(sandbox.url, paymentId, scheme);

async function quoteFor(harness: Harness, tool: string, args: Record<string, unknown>) {
  const result = await harness.call(tool, args);
  // A quote is an isError answer carrying the x402 PaymentRequired (the MCP binding), orbit's fields beside it.
  expect(result.isError, textOf(result)).toBe(true);
  expect(out(result).x402Version).toBe(2);
  const payment = out(result).payment;
  expect(payment.quote_id).toMatch(/^pay_/);
  return { result, payment, id: payment.quote_id as string };
}

const search = { endpoint: 'web.search', input: { query: 'orbital debris', maxResults: 3 } };
const requestsTo = (path: string) => sandbox.requests.filter((r) => r.path === path);

describe('accountless quote', () => {
  it('asks without a key, with x-x402, and returns a payment request a person can act on', async () => {
    sandbox.clearRequests();
    const { result, payment } = await quoteFor(h, 'data_call', search);
    const sent = requestsTo('/api/v1/data/web/search')[0]!;
    expect(sent.headers['x-x402']).toBe('true');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers['x-api-key']).toBeUndefined();
    expect(sent.body).toBe(JSON.stringify(search.input));
    expect(payment).toMatchObject({ amount_usd: '0.006', expires_at: expect.any(String) });
    const schemes = payment.rails.map((r: { scheme: string }) => r.scheme);
    expect(schemes).toEqual([
      'x402-exact',
      'x402-solana-usdc',
      'nano-exact',
      'base-usdc',
      'nano',
      'lightning-l402',
    ]);
    expect(payment.rails.find((r: { scheme: string }) => r.scheme === 'base-usdc')).toMatchObject({
      kind: 'polling',
      network: 'base',
      amount: '0.006000 USDC',
      pay_to: expect.stringMatching(/^0x/),
    });
    expect(payment.rails.find((r: { scheme: string }) => r.scheme === 'lightning-l402')).toMatchObject({
      kind: 'lightning',
      invoice: expect.stringMatching(/^lnbc/),
    });
    // content[0] is the binding's {"x402/error": ...}; orbit's text for the person follows it.
    const text = textOf({ ...result, content: result.content.slice(1) });
    expect(text).toMatch(/^Payment required: 0\.006 USD \(quote pay_\w+, expires /);
    expect(text).toMatch(/- base-usdc on base: 0\.006000 USDC to 0x/);
    expect(text).toMatch(/x402_complete with quote_id/);
    // The L402 token stays on this side: the person needs the invoice, not the token.
    expect(JSON.stringify(result)).not.toMatch(/l402Token|eyJ2Ijox/);
  });

  it('quotes on request with payment x402 even when a key is configured, sending no key', async () => {
    const keyed = await startHarness({ sharedSandbox: sandbox });
    try {
      sandbox.clearRequests();
      const { result } = await quoteFor(keyed, 'web_search', { query: 'aurora', payment: 'x402' });
      expect(out(result).results).toEqual([]);
      const sent = requestsTo('/api/web')[0]!;
      expect(sent.headers.authorization).toBeUndefined();
      expect(sent.headers['x-x402']).toBe('true');
      expect(JSON.stringify(result)).not.toContain(SANDBOX_DEMO_KEY);
    } finally {
      await keyed.close();
    }
  });

  it('says plainly that a route without per-call payment needs a key', async () => {
    const result = await h.call('data_call', {
      endpoint: 'crawler',
      input: { url: 'https://docs.example.com' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/missing_credential\): \/api\/v1\/data\/crawler cannot be paid per call/);
    expect(textOf(result)).toMatch(/x402_endpoints lists what can be paid per call/);
  });
});

describe('x402_complete, polling rails', () => {
  it('base-usdc: waits with progress until paid, then completes and renders as data_call', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    sandbox.clearRequests();
    const progress: Progress[] = [];
    const paying = new Promise((resolve) => setTimeout(resolve, 300)).then(() => pay(id, 'base-usdc'));
    const result = await h.call('x402_complete', { quote_id: id }, { onprogress: (p) => progress.push(p) });
    await paying;
    expect(result.isError, textOf(result)).toBeFalsy();
    const r = out(result);
    expect(r).toMatchObject({ status: 'completed', tool: 'data_call' });
    expect(r.result).toMatchObject({ endpoint: 'web.search', direct_endpoint: '/api/web', cost: 0.006 });
    expect(r.result.data.results.length).toBeGreaterThan(0);
    expect(progress[0]?.message).toMatch(/^waiting for payment of 0\.006 USD \(quote pay_/);
    expect(requestsTo(`/api/x402/status/${id}`).length).toBeGreaterThan(1);
    expect(requestsTo(`/api/x402/complete/${id}`)).toHaveLength(1);
    expect(textOf(result)).toMatch(/^<untrusted-web-content>\nPaid\. web\.search \(cost 0\.006 USD\)/);
    expect(sandbox.requests.every((q) => q.headers.authorization === undefined)).toBe(true);
  });

  it('nano: completes a web_search quote, rendered by web_search', async () => {
    const { id } = await quoteFor(h, 'web_search', { query: 'reusable rockets', limit: 2 });
    await pay(id, 'nano');
    const result = await h.call('x402_complete', { quote_id: id });
    const r = out(result);
    expect(r).toMatchObject({ status: 'completed', tool: 'web_search' });
    expect(r.result).toMatchObject({ query: 'reusable rockets', cost: 0.006 });
    expect(r.result.results).toHaveLength(2);
    expect(textOf(result)).toMatch(/^<untrusted-web-content>\nPaid\. 1\. /);
  });

  it('returns the quote id and the next call while the payment has not arrived', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    const result = await h.call('x402_complete', { quote_id: id, max_wait_s: 0 });
    expect(out(result)).toEqual({ status: 'pending', next: `x402_complete with quote_id "${id}"` });
    const job = await h.client.readResource({ uri: `orbit://jobs/${id}` });
    const record = JSON.parse(String((job.contents[0] as { text: string }).text));
    expect(record).toMatchObject({ kind: 'x402', status: 'pending' });
    expect(record.resume).toBeUndefined();
  });

  it('refuses a used quote, charging nothing, and names a new quote that then works', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    await pay(id, 'base-usdc');
    expect(out(await h.call('x402_complete', { quote_id: id })).status).toBe('completed');
    sandbox.clearRequests();
    const again = await h.call('x402_complete', { quote_id: id });
    expect(again.isError).toBe(true);
    const text = textOf(again);
    expect(text).toMatch(
      /conflict\): Quote pay_\w+ already paid for its call at .*; a quote pays once\. New quote (pay_\w+): 0\.006 USD/,
    );
    expect(text).toMatch(/Platform code: payment_already_used/);
    expect(text).toMatch(/Fix: Payment required: 0\.006 USD/);
    // Only a new quote was asked for (the wrapper, then its forward): nothing replayed or completed.
    expect(sandbox.requests.map((r) => r.path)).toEqual(['/api/v1/data/web/search', '/api/web']);
    expect(sandbox.requests[0]?.headers['x-x402']).toBe('true');
    const fresh = /New quote (pay_\w+)/.exec(text)![1]!;
    expect(fresh).not.toBe(id);
    await pay(fresh, 'base-usdc');
    expect(out(await h.call('x402_complete', { quote_id: fresh })).status).toBe('completed');
  });

  it('answers an expired quote with a clear error and a new quote', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    clock += 11 * 60_000;
    try {
      const result = await h.call('x402_complete', { quote_id: id });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Quote pay_\w+ expired at .* unpaid\. New quote pay_\w+: 0\.006 USD/);
      expect(textOf(result)).toMatch(/Platform code: payment_expired/);
    } finally {
      clock -= 11 * 60_000;
    }
  });

  it('says to pass the preimage when a polled quote was paid over lightning', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    await pay(id, 'lightning-l402');
    const result = await h.call('x402_complete', { quote_id: id });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /Platform code: payment_rail_mismatch[\s\S]*Fix: Call x402_complete with quote_id .* and the preimage/,
    );
  });
});

describe('x402_complete, lightning-l402', () => {
  it('replays the exact original request with Authorization L402 <token>:<preimage>', async () => {
    sandbox.clearRequests();
    const input = { urls: ['https://example.com/blog/launch-notes'] };
    const { id } = await quoteFor(h, 'data_call', { endpoint: 'scrape', input });
    const quoted = requestsTo('/api/v1/data/url/scrape')[0]!;
    const wallet = await pay(id, 'lightning-l402');
    sandbox.clearRequests();
    const result = await h.call('x402_complete', { quote_id: id, preimage: wallet.preimage });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).result).toMatchObject({ endpoint: 'url.scrape', cost: 0.002 });
    expect(out(result).result.data.results[0]).toMatchObject({ success: true });
    const replayed = requestsTo('/api/v1/data/url/scrape')[0]!;
    expect(replayed.method).toBe('POST');
    expect(replayed.body).toBe(quoted.body);
    expect(replayed.headers.authorization).toBe(wallet.authorization);
    expect(replayed.headers['x-payment']).toBeUndefined();
    expect(sandbox.requests.some((r) => r.path.startsWith('/api/x402/complete'))).toBe(false);
    expect(JSON.stringify(result)).not.toContain(wallet.preimage);
  });

  it('refuses a preimage that is not the invoice’s before sending', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    sandbox.clearRequests();
    const wrong = await h.call('x402_complete', { quote_id: id, preimage: 'ab'.repeat(32) });
    expect(textOf(wrong)).toMatch(/invalid_input\): This preimage is not the invoice's/);
    const short = await h.call('x402_complete', { quote_id: id, preimage: 'abc' });
    expect(textOf(short)).toMatch(/`preimage` must be 64 hex characters/);
    expect(sandbox.requests).toEqual([]);
  });

  it('gets a clear error and a new quote when the quote expired before the replay', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    const { preimage } = (await (await fetch(`${sandbox.url}/__sandbox/x402/quotes/${id}`)).json()) as {
      preimage: string;
    };
    clock += 11 * 60_000;
    try {
      const result = await h.call('x402_complete', { quote_id: id, preimage });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /expired[\s\S]*Nothing was charged for quote pay_\w+\. New quote pay_\w+/,
      );
      expect(textOf(result)).toMatch(/Platform code: payment_expired/);
    } finally {
      clock -= 11 * 60_000;
    }
  });
});

describe('x402_complete, exact rails', () => {
  for (const scheme of ['x402-exact', 'x402-solana-usdc', 'nano-exact']) {
    it(`${scheme}: replays the exact request with X-PAYMENT and decodes X-PAYMENT-RESPONSE`, async () => {
      sandbox.clearRequests();
      const { id } = await quoteFor(h, 'data_call', search);
      const quoted = requestsTo('/api/v1/data/web/search')[0]!;
      const wallet = await pay(id, scheme);
      sandbox.clearRequests();
      const result = await h.call('x402_complete', { quote_id: id, x_payment: wallet.xPayment });
      expect(result.isError, textOf(result)).toBeFalsy();
      const r = out(result);
      const network = scheme === 'x402-solana-usdc' ? 'solana' : scheme === 'nano-exact' ? 'nano' : 'base';
      expect(r.receipt).toMatchObject({ success: true, network, hash: expect.any(String) });
      expect(r.result.endpoint).toBe('web.search');
      const replayed = requestsTo('/api/v1/data/web/search')[0]!;
      expect(replayed.body).toBe(quoted.body);
      expect(replayed.headers['x-payment']).toBe(wallet.xPayment);
      expect(replayed.headers.authorization).toBeUndefined();
      expect(textOf(result)).toMatch(
        new RegExp(`^<untrusted-web-content>\\nPaid \\(${network} \\S+\\)\\. web\\.search`),
      );
    });
  }

  it('turns a payload the platform refuses into a clear error with a new quote', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    const result = await h.call('x402_complete', {
      quote_id: id,
      x_payment: Buffer.from('{"not":"a payment"}').toString('base64'),
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Platform code: invalid_payment/);
    expect(textOf(result)).toMatch(/Nothing was charged for quote pay_\w+\. New quote pay_\w+/);
    const malformed = await h.call('x402_complete', { quote_id: id, x_payment: 'not base64!' });
    expect(textOf(malformed)).toMatch(/`x_payment` must be the base64 X-PAYMENT payload/);
  });
});

describe('quotes kept for a replay', () => {
  it('keeps quotes 0600 in the config folder, so another process finishes them', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    const file = join(configDir, QUOTES_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')).quotes[id];
    expect(Buffer.from(stored.request.body, 'base64').toString()).toBe(JSON.stringify(search.input));
    const wallet = await pay(id, 'x402-exact');
    const restarted = await startHarness({ credentials: [], sharedSandbox: sandbox });
    try {
      const result = await restarted.call('x402_complete', { quote_id: id, x_payment: wallet.xPayment });
      expect(out(result).status, textOf(result)).toBe('completed');
    } finally {
      await restarted.close();
    }
  });

  it('refuses to replay a kept request that was changed, sending nothing', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    const wallet = await pay(id, 'x402-exact');
    const file = join(configDir, QUOTES_FILE);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    kept.quotes[id].request.body = Buffer.from('{"query":"something else"}').toString('base64');
    writeFileSync(file, JSON.stringify(kept));
    const restarted = await startHarness({ credentials: [], sharedSandbox: sandbox });
    try {
      sandbox.clearRequests();
      const result = await restarted.call('x402_complete', { quote_id: id, x_payment: wallet.xPayment });
      expect(textOf(result)).toMatch(/invalid_input\): The request kept for this quote was changed/);
      expect(sandbox.requests).toEqual([]);
    } finally {
      await restarted.close();
    }
  });

  it('gets payment_request_mismatch and a new quote when a replay carries another body', async () => {
    const { id } = await quoteFor(h, 'data_call', search);
    const wallet = await pay(id, 'x402-exact');
    // A consistent forgery (bytes and hash changed together) passes our check; the platform's holds.
    const file = join(configDir, QUOTES_FILE);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    const forged = Buffer.from('{"query":"something else"}');
    kept.quotes[id].request.body = forged.toString('base64');
    kept.quotes[id].request.sha256 = (await import('node:crypto'))
      .createHash('sha256')
      .update(forged)
      .digest('hex');
    writeFileSync(file, JSON.stringify(kept));
    const restarted = await startHarness({ credentials: [], sharedSandbox: sandbox });
    try {
      const result = await restarted.call('x402_complete', { quote_id: id, x_payment: wallet.xPayment });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Platform code: payment_request_mismatch/);
      expect(textOf(result)).toMatch(/New quote pay_\w+/);
    } finally {
      await restarted.close();
    }
  });

  it('keeps an HTTP tenant’s quotes in memory only, out of reach of other tenants', async () => {
    const alice = await startHarness({
      credentials: [],
      sharedSandbox: sandbox,
      trust: 'remote',
      tenant: 'alice',
    });
    const bob = await startHarness({
      credentials: [],
      sharedSandbox: sandbox,
      trust: 'remote',
      tenant: 'bob',
    });
    try {
      const { id } = await quoteFor(alice, 'data_call', search);
      expect(JSON.parse(readFileSync(join(configDir, QUOTES_FILE), 'utf8')).quotes[id]).toBeUndefined();
      await pay(id, 'base-usdc');
      const stranger = await bob.call('x402_complete', { quote_id: id });
      expect(stranger.isError).toBe(true);
      expect(textOf(stranger)).toMatch(/No quote "pay_\w+" is kept by this server/);
      expect(out(await alice.call('x402_complete', { quote_id: id })).status).toBe('completed');
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});

describe('x402_endpoints', () => {
  it('lists the payable routes with their price and the tool that calls each', async () => {
    const result = await h.call('x402_endpoints');
    expect(result.isError).toBeFalsy();
    expect(out(result).routes).toEqual([
      'POST /api/web: 0.006 USD per standard search, 0.06 USD per deep search (web_search)',
      'POST /api/v1/data/web/search: 0.006 USD per standard search, 0.06 USD per deep search (web_search)',
      'POST /api/v1/data/url/scrape: 0.002 USD per scraped URL, 0.006 USD in stealth mode (data_call endpoint url.scrape)',
      'POST /api/scrape-urls: 0.002 USD per scraped URL, 0.006 USD in stealth mode',
      'rails: x402-exact, x402-solana-usdc, nano-exact, base-usdc, nano, lightning-l402',
    ]);
  });

  it('fails with isError when the list breaks its shape', async () => {
    sandbox.faults.add({ match: { path: '/api/v1/x402/endpoints' }, status: 200, body: { data: 'none' } });
    const result = await h.call('x402_endpoints');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/upstream_invalid/);
  });
});
