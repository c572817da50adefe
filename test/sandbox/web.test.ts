import { describe, expect, it } from 'vitest';
import { post, useSandbox } from './helpers.js';

type Result = { title: string; url: string; snippet: string; domain: string; publishedDate: string };

describe('sandbox web search', () => {
  const sandbox = useSandbox();
  const searchWith = async (body: Record<string, unknown>, headers?: Record<string, string>) => {
    const res = await post(sandbox(), '/api/web', body, headers);
    return { res, body: await res.json() };
  };

  it('answers 400 when query is missing', async () => {
    const { res, body } = await searchWith({});
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ code: 'missing_required_parameter', param: 'query' });
  });

  it('returns five deterministic search results by default and debits the search price', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const first = await searchWith({ query: 'orbital mechanics' }, { 'x-api-key': key });
    expect(first.res.status).toBe(200);
    expect(first.body.outputType).toBe('searchResults');
    expect(first.body.results).toHaveLength(5);
    for (const r of first.body.results as Result[]) {
      expect(r).toMatchObject({
        title: expect.any(String),
        url: expect.stringMatching(/^https:\/\//),
        snippet: expect.any(String),
      });
    }
    expect(sandbox().state.balance(key)).toBeCloseTo(1 - 0.006, 9);
    const again = await searchWith({ query: 'orbital mechanics' }, { 'x-api-key': key });
    expect(again.body.results).toEqual(first.body.results);
  });

  it('honours includeDomains and excludeDomains', async () => {
    const only = await searchWith({ query: 'kepler', includeDomains: ['nasa.gov', 'esa.int'] });
    expect(new Set((only.body.results as Result[]).map((r) => r.domain))).toEqual(
      new Set(['nasa.gov', 'esa.int']),
    );
    const without = await searchWith({ query: 'kepler', excludeDomains: ['github.com', 'arxiv.org'] });
    expect(
      (without.body.results as Result[]).some((r) => ['github.com', 'arxiv.org'].includes(r.domain)),
    ).toBe(false);
  });

  it('keeps published dates inside fromDate and toDate', async () => {
    const { body } = await searchWith({ query: 'news', fromDate: '2025-03-01', toDate: '2025-03-20' });
    for (const r of body.results as Result[]) {
      expect(r.publishedDate >= '2025-03-01' && r.publishedDate <= '2025-03-20').toBe(true);
    }
  });

  it('gives an answer with sources for sourcedAnswer and an object for structured', async () => {
    // Nested under `data`, as the platform's reference shows it (issue 32).
    const answer = await searchWith({ query: 'tides', outputType: 'sourcedAnswer' });
    expect(answer.body).toMatchObject({
      data: { answer: expect.stringContaining('tides'), sources: expect.any(Array) },
      metadata: { query: 'tides', outputType: 'sourcedAnswer', cost: 0.006 },
    });
    expect(answer.body.answer).toBeUndefined();
    const missing = await searchWith({ query: 'tides', outputType: 'structured' });
    expect(missing.res.status).toBe(400);
    expect(missing.body.error).toMatchObject({ param: 'structuredOutputSchema' });
    const structured = await searchWith({
      query: 'tides',
      outputType: 'structured',
      structuredOutputSchema: JSON.stringify({
        type: 'object',
        properties: { topic: { type: 'string' }, keyPoints: { type: 'array' }, count: { type: 'integer' } },
      }),
    });
    expect(structured.body.structured).toMatchObject({
      topic: 'tides',
      keyPoints: expect.any(Array),
      count: 5,
    });
    const deep = await searchWith({ query: 'tides', depth: 'abyssal' });
    expect(deep.res.status).toBe(400);
  });

  it('answers 402 with a payment challenge to an accountless x-x402 request', async () => {
    const { res, body } = await searchWith({ query: 'paid query' }, { 'x-x402': 'true' });
    expect(res.status).toBe(402);
    expect(body.error).toMatchObject({ code: 'insufficient_quota' });
    expect(body.payment).toMatchObject({
      version: 1,
      paymentId: expect.stringMatching(/^pay_/),
      requestHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      amountUsd: '0.006',
      statusUrl: expect.stringContaining(body.payment.paymentId),
      completeUrl: expect.stringContaining(body.payment.paymentId),
    });
    const schemes = body.payment.accepted.map((a: { scheme: string }) => a.scheme);
    expect(schemes).toEqual([
      'x402-exact',
      'x402-solana-usdc',
      'nano-exact',
      'base-usdc',
      'nano',
      'lightning-l402',
    ]);
    expect(body.x402Version).toBe(1);
    expect(body.accepts).toHaveLength(2);
  });

  it('answers 401 missing_api_key to an accountless request without x-x402', async () => {
    const { res, body } = await searchWith({ query: 'paid query' }, {});
    expect(res.status).toBe(401);
    expect(body.error.code).toBe('missing_api_key');
  });

  it('accepts one X-PAYMENT replay of the identical request and rejects a second', async () => {
    const request = { query: 'replayed query' };
    const { body } = await searchWith(request, { 'x-x402': 'true' });
    const wallet = await post(
      sandbox(),
      '/__sandbox/x402/pay',
      { paymentId: body.payment.paymentId, scheme: 'x402-exact' },
      {},
    );
    const { xPayment } = await wallet.json();
    const paid = await searchWith(request, { 'x-payment': xPayment });
    expect(paid.res.status).toBe(200);
    expect(paid.res.headers.get('x-payment-response')).toBeTruthy();
    expect(paid.body.results).toHaveLength(5);
    const again = await searchWith(request, { 'x-payment': xPayment });
    expect(again.res.status).toBe(402);
    expect(again.body.error.code).toBe('payment_already_used');
  });
});
