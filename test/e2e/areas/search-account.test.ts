import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('web_search', () => {
  it('returns ranked results and sends the filters in the platform field names', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('web_search', {
      query: 'model context protocol',
      include_domains: ['example.org'],
      limit: 3,
    });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as {
      results: { url: string; title?: string }[];
      request_id?: string;
    };
    expect(out.results.length).toBeGreaterThan(0);
    expect(out.results.length).toBeLessThanOrEqual(3);
    expect(out.results[0]!.url).toMatch(/^https?:\/\//);
    const sent = h.sandbox.requests.find((r) => r.path === '/api/web');
    expect(sent?.json).toMatchObject({
      query: 'model context protocol',
      outputType: 'searchResults',
      includeDomains: ['example.org'],
    });
    expect(textOf(result)).toContain('1. ');
  });

  it('returns a sourced answer on request', async () => {
    const result = await h.call('web_search', { query: 'why is the sky blue', output: 'sourcedAnswer' });
    const out = result.structuredContent as { answer?: string };
    expect(out.answer?.length).toBeGreaterThan(0);
  });

  it('refuses an empty query before sending', async () => {
    const result = await h.call('web_search', { query: '' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('query');
  });
});

describe('auth_status', () => {
  it('names the platform and the credentials present without their values', async () => {
    const result = await h.call('auth_status');
    const out = result.structuredContent as {
      platform: string;
      credentials: { kind: string; present: boolean; source?: string }[];
    };
    expect(out.platform).toBe('sandbox');
    expect(out.credentials).toContainEqual({ kind: 'api_key', present: true, source: 'sandbox' });
    expect(out.credentials).toContainEqual({ kind: 'session', present: false });
    expect(JSON.stringify(result)).not.toContain('sk-orbit-sandbox-demo');
  });

  it('refuses an argument it does not take, instead of dropping it without a word', async () => {
    for (const tool of ['auth_status', 'auth_logout']) {
      const result = await h.call(tool, { verbose: true });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/invalid_input\): Unknown argument `verbose`[\s\S]*takes no arguments/);
    }
    const typo = await h.call('web_search', { query: 'x', limt: 3 });
    expect(textOf(typo)).toMatch(/Unknown argument `limt`[\s\S]*web_search takes: query, .*limit/);
  });
});

describe('auth_status without credentials', () => {
  it('reports every credential as absent and then chat says how to get a key', async () => {
    const bare = await startHarness({ credentials: [], sharedSandbox: h.sandbox });
    try {
      const status = await bare.call('auth_status');
      const out = status.structuredContent as { credentials: { present: boolean }[] };
      expect(out.credentials.every((c) => !c.present)).toBe(true);
      const chat = await bare.call('chat', { model: 'openai/gpt-sandbox', prompt: 'hi' });
      expect(chat.isError).toBe(true);
      expect(textOf(chat)).toMatch(/missing_credential[\s\S]*ORBIT_API_KEY/);
    } finally {
      await bare.close();
    }
  });
});
