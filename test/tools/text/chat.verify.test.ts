/**
 * `chat` with `verify: true` end to end through the tool (issue 14 item 3): the answer comes back
 * with the enclave signature's verdict, streamed and not, in each format; a reply altered in transit
 * is still returned, marked unverified with the failed check; a model outside the enclave is refused
 * before anything is sent. And `eval_store_content` (issue 13) reaches the platform as its flag.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';
import { clearCorruptions, corrupt, TEE_MODEL } from '../../sandbox/tee-helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await clearCorruptions(h.sandbox);
});
afterAll(async () => {
  await h.close();
});

describe('chat verify: true', () => {
  it.each([
    ['chat', false],
    ['chat', true],
    ['messages', true],
    ['responses', false],
  ] as const)('returns the answer with a verified verdict (%s, stream: %s)', async (format, stream) => {
    const result = await h.call('chat', {
      model: TEE_MODEL,
      prompt: 'A private question',
      format,
      stream,
      verify: true,
    });
    expect(result.isError).toBeFalsy();
    const r = out(result);
    expect(r.text.length).toBeGreaterThan(0);
    expect(r.verification).toMatchObject({ verified: true, failed: [] });
    expect(r.verification.verdict).toMatch(/^verified: signed in an attested enclave/);
    expect(textOf(result)).toContain('Enclave signature: verified');
    // The signature was fetched for this reply's id.
    const signature = h.sandbox.requests.find((q) => q.path === `/api/v1/tee/signature/${r.request_id}`);
    expect(signature?.method).toBe('GET');
  });

  it.each([false, true])(
    'still answers when the reply was altered in transit, marked unverified (stream: %s)',
    async (stream) => {
      await corrupt(h.sandbox, { part: 'response_bytes', model: TEE_MODEL });
      const result = await h.call('chat', { model: TEE_MODEL, prompt: 'Hello', stream, verify: true });
      expect(result.isError).toBeFalsy();
      const r = out(result);
      expect(r.text).toContain('[altered in transit]');
      expect(r.verification).toMatchObject({ verified: false, failed: ['response_hash'] });
      expect(textOf(result)).toContain('Enclave signature: unverified: response_hash failed');
      // tee_verify shows every check of the kept exchange.
      const all = out(await h.call('tee_verify', { request_id: r.request_id }));
      expect(all.failed).toEqual(['response_hash']);
    },
  );

  it('refuses a model outside the enclave before sending anything', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('chat', { model: 'openai/gpt-sandbox', prompt: 'Hi', verify: true });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/verify works only with enclave models[\s\S]*TEE\//);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('refuses verify with a background response', async () => {
    const result = await h.call('chat', {
      model: TEE_MODEL,
      prompt: 'Hi',
      format: 'responses',
      background: 0,
      verify: true,
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('tee_verify');
  });

  it('without verify, no verdict and no signature request', async () => {
    h.sandbox.clearRequests();
    const r = out(await h.call('chat', { model: TEE_MODEL, prompt: 'Hi', stream: false }));
    expect(r.verification).toBeUndefined();
    expect(h.sandbox.requests.some((q) => q.path.startsWith('/api/v1/tee/'))).toBe(false);
  });
});

describe('chat eval_store_content', () => {
  it('sends orbit_eval_store_content: true only when asked', async () => {
    h.sandbox.clearRequests();
    await h.call('chat', {
      model: 'openai/gpt-sandbox',
      prompt: 'Keep this',
      stream: false,
      eval_store_content: true,
    });
    await h.call('chat', { model: 'openai/gpt-sandbox', prompt: 'Not this', stream: false });
    const bodies = h.sandbox.requests
      .filter((q) => q.path === '/api/v1/chat/completions')
      .map((q) => JSON.parse(q.body ?? '{}'));
    expect(bodies).toHaveLength(2);
    expect(bodies[0].orbit_eval_store_content).toBe(true);
    expect(bodies[1]).not.toHaveProperty('orbit_eval_store_content');
  });
});
