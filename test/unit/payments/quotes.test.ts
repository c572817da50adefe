import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError, UpstreamInvalidError } from '../../../src/errors.js';
import { JobStore } from '../../../src/jobs/store.js';
import { challengeOf, paymentRequest, paymentText } from '../../../src/payments/challenge.js';
import { GRACE_MS, QUOTES_FILE, QuoteFile, type StoredQuote } from '../../../src/payments/quote-file.js';
import { quotesFor } from '../../../src/payments/quotes.js';

const quote = (id: string, expiresAt: string): StoredQuote => ({
  quote_id: id,
  platform: 'http://127.0.0.1:1',
  tool: 'data_call',
  render: { endpoint: 'web.search' },
  request: { method: 'POST', path: '/api/v1/data/web/search', body: 'e30=', sha256: 'x' },
  amount_usd: '0.006',
  expires_at: expiresAt,
  exact: true,
});

describe('QuoteFile', () => {
  it('writes the file 0600 in a 0700 folder and reads a quote back', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'orbit-quotes-')), 'config');
    const file = new QuoteFile(dir);
    file.put(quote('pay_1', new Date(Date.now() + 600_000).toISOString()));
    expect(statSync(join(dir, QUOTES_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(file.get('pay_1')?.request.path).toBe('/api/v1/data/web/search');
    expect(file.get('pay_2')).toBeUndefined();
  });

  it('forgets a quote once its expiry and the grace after it have passed, on read and on write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orbit-quotes-'));
    let now = Date.parse('2030-01-01T00:00:00Z');
    const file = new QuoteFile(dir, () => now);
    file.put(quote('pay_old', '2030-01-01T00:10:00Z'));
    now += 600_000 + GRACE_MS - 1;
    expect(file.get('pay_old')).toBeDefined();
    now += 2;
    expect(file.get('pay_old')).toBeUndefined();
    file.put(quote('pay_new', '2030-01-01T03:00:00Z'));
    expect(Object.keys(JSON.parse(readFileSync(join(dir, QUOTES_FILE), 'utf8')).quotes)).toEqual(['pay_new']);
  });

  it('reads an unreadable file as empty and replaces it on the next write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orbit-quotes-'));
    writeFileSync(join(dir, QUOTES_FILE), '{not json');
    const file = new QuoteFile(dir);
    expect(file.get('pay_1')).toBeUndefined();
    file.put(quote('pay_1', new Date(Date.now() + 600_000).toISOString()));
    expect(file.get('pay_1')).toBeDefined();
  });
});

describe('quotesFor', () => {
  const scope = (trust: 'local' | 'remote', tenant = 't1', jobs = new JobStore()) => ({
    jobs: jobs.forTenant(tenant),
    files: { trust },
    api: { baseUrl: 'http://127.0.0.1:1' },
    log: { warning() {} },
  });

  it('keeps quotes per tenant in memory only over HTTP, and on disk too over stdio', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orbit-quotes-'));
    const jobs = new JobStore();
    const remote = quotesFor(scope('remote', 'alice', jobs), () => dir);
    remote.save(quote('pay_a', new Date(Date.now() + 600_000).toISOString()));
    expect(await remote.get('pay_a')).toBeDefined();
    expect(await quotesFor(scope('remote', 'bob', jobs), () => dir).get('pay_a')).toBeUndefined();
    expect(() => readFileSync(join(dir, QUOTES_FILE))).toThrow();

    const local = quotesFor(scope('local'), () => dir);
    local.save(quote('pay_l', new Date(Date.now() + 600_000).toISOString()));
    // A new process (fresh memory) finds it on disk.
    expect((await quotesFor(scope('local', 'local', new JobStore()), () => dir).get('pay_l'))?.quote_id).toBe(
      'pay_l',
    );
  });

  it('never hands a quote to another platform', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orbit-quotes-'));
    quotesFor(scope('local'), () => dir).save(quote('pay_p', new Date(Date.now() + 600_000).toISOString()));
    const other = { ...scope('local', 'local', new JobStore()), api: { baseUrl: 'http://127.0.0.1:2' } };
    expect(await quotesFor(other, () => dir).get('pay_p')).toBeUndefined();
  });

  it('marks a used quote in memory and on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orbit-quotes-'));
    const quotes = quotesFor(scope('local'), () => dir);
    quotes.save(quote('pay_u', new Date(Date.now() + 600_000).toISOString()));
    quotes.markUsed((await quotes.get('pay_u'))!);
    expect((await quotes.get('pay_u'))?.used_at).toBeDefined();
    expect(
      (await quotesFor(scope('local', 'local', new JobStore()), () => dir).get('pay_u'))?.used_at,
    ).toBeDefined();
  });
});

describe('payment challenge', () => {
  const challenge = {
    error: { code: 'insufficient_quota', message: 'Payment required' },
    payment: {
      paymentId: 'pay_9',
      expiresAt: '2030-01-01T00:10:00Z',
      amountUsd: 0.006,
      statusUrl: 'https://p.example/api/x402/status/pay_9',
      completeUrl: 'https://p.example/api/x402/complete/pay_9',
      accepted: [
        {
          scheme: 'base-usdc',
          network: 'base',
          amount: '6000',
          amountFormatted: '0.006000 USDC',
          payTo: '0xabc',
          statusUrl: 's',
          completeUrl: 'c',
        },
        {
          scheme: 'lightning-l402',
          network: 'lightning',
          amount: 6,
          amountFormatted: '6 sats',
          invoice: 'lnbc1',
          l402Token: 'tok',
          paymentHash: 'ab',
          payTo: 'node',
        },
        { scheme: 'x402-exact', protocolScheme: 'exact', network: 'base', amount: '6000', payTo: '0xabc' },
      ],
    },
  };
  const error = (body: unknown) =>
    new ApiError('Payment required', { status: 402, details: { challenge: body }, requestId: 'req_1' });

  it('turns each rail into what a person needs: amount, where to pay, and how to finish', () => {
    const request = paymentRequest(challengeOf(error(challenge), '/x')!.challenge);
    expect(request).toMatchObject({
      quote_id: 'pay_9',
      amount_usd: '0.006',
      expires_at: '2030-01-01T00:10:00Z',
    });
    expect(request.rails).toEqual([
      { scheme: 'base-usdc', kind: 'polling', network: 'base', amount: '0.006000 USDC', pay_to: '0xabc' },
      {
        scheme: 'lightning-l402',
        kind: 'lightning',
        network: 'lightning',
        amount: '6 sats',
        invoice: 'lnbc1',
      },
      { scheme: 'x402-exact', kind: 'exact', network: 'base', amount: '6000', pay_to: '0xabc' },
    ]);
    const text = paymentText(request);
    expect(text).toContain('Payment required: 0.006 USD (quote pay_9');
    expect(text).toContain('invoice lnbc1');
    expect(text).not.toContain('tok');
  });

  it('is undefined for errors that carry no challenge, and upstream_invalid for a broken one', () => {
    expect(challengeOf(new ApiError('x', { status: 402 }), '/x')).toBeUndefined();
    expect(challengeOf(new Error('x'), '/x')).toBeUndefined();
    const broken = { payment: { ...challenge.payment, accepted: [{ network: 'base' }] } };
    expect(() => challengeOf(error(broken), '/x')).toThrow(UpstreamInvalidError);
    expect(() => challengeOf(error(broken), '/x')).toThrow(
      /`payment\.accepted`: no rail can be paid \(1 rail not usable: \S+ has no scheme\)/,
    );
  });
});
