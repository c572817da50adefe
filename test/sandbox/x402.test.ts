import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { post, useSandbox } from './helpers.js';

type Rail = Record<string, string> & { scheme: string };
type Challenge = {
  error: { type: string; code: string; message: string };
  payment: {
    version: number;
    paymentId: string;
    requestHash: string;
    expiresAt: string;
    amountUsd: string;
    statusUrl: string;
    completeUrl: string;
    accepted: Rail[];
  };
  x402Version: number;
  accepts: Record<string, unknown>[];
};

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const QUOTE = { 'x-x402': 'true' };
const SEARCH = '/api/v1/data/web/search';

describe('sandbox accountless payment (x402)', () => {
  let clock = Date.UTC(2025, 5, 1, 12);
  const sandbox = useSandbox({ now: () => clock });
  const send = async (path: string, body: unknown, headers: Record<string, string>) => {
    const res = await post(sandbox(), path, body, headers);
    return { res, body: await res.json() };
  };
  const quote = async (body: unknown, path = SEARCH) => {
    const { res, body: challenge } = await send(path, body, QUOTE);
    expect(res.status).toBe(402);
    return challenge as Challenge;
  };
  const pay = async (paymentId: string, scheme: string) => {
    const res = await post(sandbox(), '/__sandbox/x402/pay', { paymentId, scheme }, {});
    return { res, body: await res.json() };
  };
  const status = async (c: Challenge) => (await (await fetch(c.payment.statusUrl)).json()).status;
  const complete = async (c: Challenge) => {
    const res = await fetch(c.payment.completeUrl, { method: 'POST' });
    return { res, body: await res.json() };
  };

  it('quotes a key-less request with x-x402: true: payment object, every rail, legacy accepts', async () => {
    const body = { query: 'quoted search' };
    const sent = await send(SEARCH, body, QUOTE);
    expect(sent.res.status).toBe(402);
    expect(sent.res.headers.get('x-orbit-data-endpoint')).toBe('web.search');
    const challenge = sent.body as Challenge;
    const { payment } = challenge;
    const hash = `sha256:${sha256(`POST\n${SEARCH}\n${sha256(JSON.stringify(body))}`)}`;
    expect(challenge.error).toEqual({
      type: 'payment_required',
      code: 'insufficient_quota',
      message: expect.any(String),
    });
    expect(payment).toEqual({
      version: 1,
      paymentId: expect.stringMatching(/^pay_[0-9a-f]{24}$/),
      requestHash: hash,
      expiresAt: new Date(clock + 600_000).toISOString(),
      amountUsd: '0.006',
      statusUrl: `${sandbox().url}/api/x402/status/${payment.paymentId}`,
      completeUrl: `${sandbox().url}/api/x402/complete/${payment.paymentId}`,
      accepted: expect.any(Array),
    });
    const rails = Object.fromEntries(payment.accepted.map((r) => [r.scheme, r]));
    expect(Object.keys(rails)).toEqual([
      'x402-exact',
      'x402-solana-usdc',
      'nano-exact',
      'base-usdc',
      'nano',
      'lightning-l402',
    ]);
    for (const rail of payment.accepted) {
      expect(rail).toMatchObject({
        protocolScheme: expect.any(String),
        network: expect.any(String),
        amount: expect.stringMatching(/^\d+$/),
        amountFormatted: expect.any(String),
        amountUsd: '0.006',
        payTo: expect.any(String),
        paymentId: payment.paymentId,
        expiresAt: payment.expiresAt,
      });
    }
    expect(rails['x402-exact']).toMatchObject({
      network: 'base',
      amount: '6000',
      asset: expect.stringMatching(/^0x/),
    });
    expect(rails['x402-solana-usdc']).toMatchObject({
      network: 'solana',
      amount: '6000',
      feePayer: expect.any(String),
    });
    expect(rails.nano).toMatchObject({
      amount: '7500000000000000000000000000',
      amountFormatted: '0.007500 XNO',
    });
    for (const polling of ['base-usdc', 'nano']) {
      expect(rails[polling]).toMatchObject({
        statusUrl: payment.statusUrl,
        completeUrl: payment.completeUrl,
      });
    }
    expect(rails['x402-exact']?.statusUrl).toBeUndefined();
    expect(rails['lightning-l402']).toMatchObject({
      network: 'lightning',
      amount: '6',
      invoice: expect.stringMatching(/^lnbc/),
      paymentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      l402Token: expect.any(String),
    });
    expect(challenge.x402Version).toBe(1);
    expect(challenge.accepts.map((a) => [a.scheme, a.network, a.maxAmountRequired])).toEqual([
      ['exact', 'base', '6000'],
      ['exact', 'solana', '6000'],
    ]);
    expect(challenge.accepts[0]).toMatchObject({
      resource: `${sandbox().url}${SEARCH}`,
      payTo: expect.any(String),
    });
  });

  it('answers 401 missing_api_key without x-x402, and on routes that take no accountless payment', async () => {
    expect((await send(SEARCH, { query: 'q' }, {})).body.error.code).toBe('missing_api_key');
    const maps = await send('/api/v1/data/maps/search', { query: 'tea' }, QUOTE);
    expect(maps.res.status).toBe(401);
    expect(maps.body.code).toBe('missing_api_key');
  });

  it('quotes url.scrape at its per-URL price, and validates before quoting', async () => {
    const urls = ['https://example.com/a', 'https://example.com/b', 'https://gone.invalid/'];
    expect((await quote({ urls }, '/api/v1/data/url/scrape')).payment.amountUsd).toBe('0.004');
    const bad = await send('/api/v1/data/url/scrape', { urls: [] }, QUOTE);
    expect(bad.res.status).toBe(400);
    expect(bad.body.payment).toBeUndefined();
  });

  it.each(['base-usdc', 'nano'])(
    '%s: poll status, pay, complete once with the original result',
    async (scheme) => {
      const balance = sandbox().state.balance('sk-orbit-sandbox-demo');
      const challenge = await quote({ query: `polling ${scheme}` });
      expect(await status(challenge)).toBe('pending');
      const early = await complete(challenge);
      expect(early.res.status).toBe(402);
      expect(early.body.error.code).toBe('payment_pending');
      const paid = await pay(challenge.payment.paymentId, scheme);
      expect(paid.body).toEqual({ paymentId: challenge.payment.paymentId, scheme, status: 'paid' });
      const polled = await (await fetch(challenge.payment.statusUrl)).json();
      expect(polled).toMatchObject({
        status: 'paid',
        paid: true,
        scheme,
        amountUsd: '0.006',
        completedAt: null,
      });
      sandbox().clearRequests();
      const done = await complete(challenge);
      expect(done.res.status).toBe(200);
      expect(done.body.results).toHaveLength(5);
      expect(done.body.x_orbit_pricing.paymentSource).toBe('x402');
      const replayed = sandbox().requests.map((r) => [r.method, r.path, r.body]);
      expect(replayed).toEqual([
        ['POST', `/api/x402/complete/${challenge.payment.paymentId}`, ''],
        ['POST', SEARCH, JSON.stringify({ query: `polling ${scheme}` })],
        ['POST', '/api/web', JSON.stringify({ query: `polling ${scheme}` })],
      ]);
      expect(await status(challenge)).toBe('completed');
      const twice = await complete(challenge);
      expect(twice.res.status).toBe(409);
      expect(twice.body.error.code).toBe('payment_already_used');
      expect(sandbox().state.balance('sk-orbit-sandbox-demo')).toBe(balance);
    },
  );

  it('completes a body-style data call by replaying the exact original body', async () => {
    const original = { endpoint: 'url.scrape', input: { urls: ['https://example.com/x'] } };
    const challenge = await quote(original, '/api/v1/data');
    await pay(challenge.payment.paymentId, 'nano');
    const done = await complete(challenge);
    expect(done.res.status).toBe(200);
    expect(done.body.summary).toMatchObject({ successful: 1, totalCost: 0.002 });
    expect(done.res.headers.get('x-orbit-data-endpoint')).toBe('url.scrape');
  });

  it('lightning-l402: the wallet preimage hashes to the invoice, and one L402 replay succeeds', async () => {
    const body = { query: 'lightning' };
    const challenge = await quote(body);
    const rail = challenge.payment.accepted.find((r) => r.scheme === 'lightning-l402')!;
    const wallet = (await pay(challenge.payment.paymentId, 'lightning-l402')).body;
    expect(sha256(Buffer.from(wallet.preimage, 'hex'))).toBe(rail.paymentHash);
    expect(wallet.authorization).toBe(`L402 ${rail.l402Token}:${wallet.preimage}`);
    const wrong = await send(SEARCH, body, { authorization: `L402 ${rail.l402Token}:${'0'.repeat(64)}` });
    expect(wrong.res.status).toBe(402);
    expect(wrong.body.error.code).toBe('invalid_payment');
    const viaComplete = await complete(challenge);
    expect(viaComplete.res.status).toBe(409);
    expect(viaComplete.body.error.code).toBe('payment_rail_mismatch');
    const paid = await send(SEARCH, body, { authorization: wallet.authorization });
    expect(paid.res.status).toBe(200);
    expect(paid.body.results).toHaveLength(5);
    expect(paid.res.headers.get('x-payment-response')).toBeNull();
    const again = await send(SEARCH, body, { authorization: wallet.authorization });
    expect(again.res.status).toBe(402);
    expect(again.body.error.code).toBe('payment_already_used');
    expect(again.body.payment.paymentId).not.toBe(challenge.payment.paymentId);
  });

  it.each([
    ['x402-exact', 'base'],
    ['x402-solana-usdc', 'solana'],
    ['nano-exact', 'nano'],
  ])('%s: one X-PAYMENT replay succeeds with an X-PAYMENT-RESPONSE receipt', async (scheme, network) => {
    const body = { query: `exact ${scheme}` };
    const challenge = await quote(body);
    const wallet = (await pay(challenge.payment.paymentId, scheme)).body;
    expect(wallet).toMatchObject({ scheme, status: 'pending', xPayment: expect.any(String) });
    const paid = await send(SEARCH, body, { 'x-payment': wallet.xPayment });
    expect(paid.res.status).toBe(200);
    const receipt = JSON.parse(
      Buffer.from(paid.res.headers.get('x-payment-response')!, 'base64').toString('utf8'),
    );
    expect(receipt).toEqual({
      success: true,
      hash: expect.stringMatching(/^(0x)?[0-9a-fA-F]{64}$/),
      network,
    });
    expect(await status(challenge)).toBe('completed');
    const again = await send(SEARCH, body, { 'x-payment': wallet.xPayment });
    expect(again.body.error.code).toBe('payment_already_used');
  });

  it('refuses a replay whose body, path or payload changed, and keeps the quote for the real one', async () => {
    const body = { query: 'bound request' };
    const challenge = await quote(body);
    const { xPayment } = (await pay(challenge.payment.paymentId, 'x402-exact')).body;
    const tampered = await send(SEARCH, { query: 'bound request!' }, { 'x-payment': xPayment });
    expect(tampered.res.status).toBe(402);
    expect(tampered.body.error.code).toBe('payment_request_mismatch');
    expect(tampered.body.error.message).toMatch(/exact original method, path and body/);
    expect(tampered.body.payment.requestHash).not.toBe(challenge.payment.requestHash);
    const otherPath = await send('/api/web', body, { 'x-payment': xPayment });
    expect(otherPath.body.error.code).toBe('payment_request_mismatch');
    const decoded = JSON.parse(Buffer.from(xPayment, 'base64').toString('utf8'));
    decoded.payload.amount = '1';
    const cheaper = Buffer.from(JSON.stringify(decoded)).toString('base64');
    expect((await send(SEARCH, body, { 'x-payment': cheaper })).body.error.code).toBe('invalid_payment');
    expect((await send(SEARCH, body, { 'x-payment': 'not base64 json' })).body.error.code).toBe(
      'invalid_payment',
    );
    const unknown = Buffer.from(JSON.stringify({ ...decoded, paymentId: 'pay_unknown' })).toString('base64');
    expect((await send(SEARCH, body, { 'x-payment': unknown })).body.error.code).toBe('payment_not_found');
    expect((await send(SEARCH, body, { 'x-payment': xPayment })).res.status).toBe(200);
  });

  it('expires unpaid quotes after 10 minutes, but completes one paid in time', async () => {
    const stale = await quote({ query: 'stale' });
    const { xPayment } = (await pay(stale.payment.paymentId, 'x402-exact')).body;
    const paidInTime = await quote({ query: 'paid in time' });
    await pay(paidInTime.payment.paymentId, 'base-usdc');
    clock += 600_001;
    expect(await status(stale)).toBe('expired');
    const late = await send(SEARCH, { query: 'stale' }, { 'x-payment': xPayment });
    expect(late.res.status).toBe(402);
    expect(late.body.error.code).toBe('payment_expired');
    expect(late.body.payment.expiresAt).toBe(new Date(clock + 600_000).toISOString());
    const latePay = await pay(stale.payment.paymentId, 'nano');
    expect(latePay.res.status).toBe(410);
    expect(latePay.body.error.code).toBe('payment_expired');
    expect((await complete(stale)).res.status).toBe(410);
    expect((await complete(paidInTime)).res.status).toBe(200);
  });

  it('reports control-route misuse: unknown quote, unknown rail, a second rail', async () => {
    expect((await pay('pay_nope', 'nano')).res.status).toBe(404);
    const challenge = await quote({ query: 'control' });
    const badRail = await pay(challenge.payment.paymentId, 'paypal');
    expect(badRail.res.status).toBe(400);
    await pay(challenge.payment.paymentId, 'nano');
    const second = await pay(challenge.payment.paymentId, 'base-usdc');
    expect(second.res.status).toBe(409);
    expect(second.body.error.code).toBe('payment_already_paid');
    expect((await fetch(`${sandbox().url}/api/x402/status/pay_nope`)).status).toBe(404);
    const inspect = await (
      await fetch(`${sandbox().url}/__sandbox/x402/quotes/${challenge.payment.paymentId}`)
    ).json();
    expect(inspect).toMatchObject({
      status: 'paid',
      scheme: 'nano',
      request: { method: 'POST', path: SEARCH, bodyText: JSON.stringify({ query: 'control' }) },
      preimage: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});
