/**
 * Every regular expression that once took time growing faster than its input (issue 34: a
 * hostile client or platform stalled the event loop for every tenant), each with a hostile input
 * of about 1 MB (the attack string the regex audit found, repeated). Each runs in a process of its
 * own (test/helpers/isolated.ts): a regression blocks that process, not this one, and fails by
 * the deadline. The assertions are on what comes back. Sites that were always linear, and why, are
 * in test/meta/regex-sites.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { runIsolated } from '../helpers/isolated.js';

const MB = 1_000_000;

describe('linear time on hostile input', () => {
  it('redacts a JWT after a megabyte of near-JWTs (secrets.ts)', async () => {
    const redacted = await runIsolated<string>(`
      const { createRedactor } = await load('src/secrets.ts');
      const text = '0' + '-eyJ-------e'.repeat(${MB / 12}) + ' eyJhbGciOiJI.eyJzdWIiOiIx.c2ln';
      return createRedactor().text(text).slice(-20);
    `);
    expect(redacted).toBe('J-------e [redacted]');
  });

  it('finds no certificate in 4 MB of unterminated PEM blocks (tee/x509.ts)', async () => {
    const message = await runIsolated<string>(`
      const { parseCertificates } = await load('src/tee/x509.ts');
      const text = '----END CERTIFICATE-----BEGIN CERTIFICATE-----I'.repeat(${(4 * MB) / 48});
      try { parseCertificates(text, 'the quote'); return 'parsed'; } catch (error) { return error.message; }
    `);
    expect(message).toBe('the quote holds no certificate.');
  });

  it("reads the legacy route's cost block after a megabyte of look-alike tags (text/legacy.ts)", async () => {
    const read = await runIsolated<{ text: string; cost: number } | string>(`
      const { legacyInto } = await load('tools/text/legacy.ts');
      const reply = '<A>{}'.repeat(${MB / 5}) + 'done <cost>{"cost": 0.5}</cost>';
      const api = { bytes: async () => ({ data: Buffer.from(reply), requestId: 'req_1' }) };
      const state = {};
      const request = { conversation: { turns: [{ role: 'user', content: 'hi' }] }, body: { model: 'm' }, headers: {} };
      try { await legacyInto(state, api, request); } catch (error) { return error.message; }
      return { text: state.text.slice(-10), cost: state.cost.amount };
    `);
    expect(read).toEqual({ text: '}<A>{}done', cost: 0.5 });
  });

  it('refuses a megabyte e-mail address to invite (teams/invitations.ts)', async () => {
    const message = await runIsolated<string>(`
      const { invite } = await load('tools/teams/invitations.ts');
      const email = '\\u0000@\\u0000' + '.\\u0000'.repeat(${MB / 2}) + '.@..\\u0000';
      try { await invite({}, 'team_1', { email }); return 'sent'; } catch (error) { return error.message; }
    `);
    expect(message).toBe('`email` is not a valid email address.');
  });

  it('refuses a megabyte e-mail address in the sandbox (sandbox/teams/access.ts)', async () => {
    const valid = await runIsolated<boolean>(`
      const { Email } = await load('src/sandbox/teams/access.ts');
      return Email.safeParse('a@b' + '.b'.repeat(${MB / 2}) + '@').success;
    `);
    expect(valid).toBe(false);
  });

  it('normalizes a data endpoint id ending in a megabyte of slashes (data/shared.ts, sandbox/data/ids.ts)', async () => {
    const ids = await runIsolated<string[]>(`
      const tool = await load('tools/data/shared.ts');
      const sandbox = await load('src/sandbox/data/ids.ts');
      const raw = 'web/search' + '/'.repeat(${MB}) + 'x';
      return [tool.normalizeId(raw).length, sandbox.normalizeId(raw).length, tool.normalizeId('web/search///')];
    `);
    expect(ids).toEqual([MB + 11, MB + 11, 'web.search']);
  });

  it("lists a page's links under a megabyte of slashes (sandbox/data/pages.ts)", async () => {
    const links = await runIsolated<number>(`
      const { linksOf } = await load('src/sandbox/data/pages.ts');
      return linksOf(new URL('https://example.com/a' + '/'.repeat(${MB}) + 'b')).length;
    `);
    expect(links).toBe(3);
  });

  it('reads a domain filter of a megabyte of slashes (sandbox/search.ts)', async () => {
    const slug = await runIsolated<string>(`
      const { slugify, search } = await load('src/sandbox/search.ts');
      const found = search('q', { includeDomains: ['a' + '/'.repeat(${MB}) + '\\nb'] });
      return slugify('\\u0000' + '-'.repeat(${MB}) + 'x') + found.length;
    `);
    expect(slug).toMatch(/^x\d+$/);
  });

  it("fills tool arguments from a megabyte prompt of open quotes (sandbox's emulated model)", async () => {
    const calls = await runIsolated<{ name: string }[]>(`
      const { planToolCalls } = await load('src/sandbox/text/tools.ts');
      const tool = { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };
      const prompt = 'use lookup ' + '“\\'0'.repeat(${MB / 3});
      return planToolCalls({ tools: [tool], choice: { type: 'auto' }, parallel: false }, prompt, false);
    `);
    expect(calls.map((call) => call.name)).toEqual(['lookup']);
  });

  it("stops a caller's backtracking regex scorer at its deadline (sandbox evals)", async () => {
    const score = await runIsolated<{ passed: boolean; reasoning: string }>(`
      const { applyScorer } = await load('src/sandbox/evals/scoring.ts');
      return applyScorer({
        scorer: { scorerType: 'regex', config: { pattern: '^(a+)+$' } },
        input: 'x', expected: undefined, opponents: [], candidateCount: 1,
        trace: { output: 'a'.repeat(40) + '!' },
      });
    `);
    expect(score).toMatchObject({ passed: false, reasoning: expect.stringMatching(/backtracks/) });
  });
});
