import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { maxSpendUsd: '0.01' } });
});
afterAll(async () => {
  await h.close();
});

const budgetOf = async () =>
  (await h.call('usage_get', {})).structuredContent?.budget as Record<string, number | undefined>;

describe('the spend budget (--max-spend-usd)', () => {
  it('8 concurrent searches in one session: only what the budget covers is sent (finding 1)', async () => {
    h.sandbox.clearRequests();
    // A search reserves its price, 0.006 USD, before it is sent: one fits 0.01, a second would not.
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => h.call('web_search', { query: `concurrent ${i}` })),
    );
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    const refused = results.find((r) => r.isError)!;
    expect(textOf(refused)).toMatch(
      /budget_exceeded\): This call would pass the spend budget: .* USD left; this call reserves 0\.006 USD \(the platform's price/,
    );
    expect(textOf(refused)).toMatch(/Nothing was sent/);
    expect(h.sandbox.requests.filter((r) => r.path === '/api/web')).toHaveLength(1);
    expect(await budgetOf()).toMatchObject({ spent_usd: 0.006, reserved_usd: 0, left_usd: 0.004 });
  });

  it('refuses unsent a video whose price for the requested size passes what is left (finding 4)', async () => {
    h.sandbox.clearRequests();
    const refused = await h.call('video_generate', {
      model: 'sandbox/video-lite',
      prompt: 'a fox',
      duration: '5',
      resolution: '720p',
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /this call reserves 0\.25 USD \(sandbox\/video-lite at 0\.05 USD per second at 720p for 5 s\)/,
    );
    expect(h.sandbox.requests.filter((r) => r.path.startsWith('/api/generate-video'))).toHaveLength(0);
  });

  it('still serves calls that cost nothing', async () => {
    expect((await h.call('models_list', {})).isError).toBeFalsy();
  });
});

describe('a paid call that fails', () => {
  it('releases its reservation, so a failure spends and holds nothing', async () => {
    const roomy = await startHarness({ config: { maxSpendUsd: '1' } });
    try {
      roomy.sandbox.faults.add({ match: { path: '/api/web' }, status: 400, times: 1 });
      const failed = await roomy.call('web_search', { query: 'fails' });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).not.toMatch(/budget_exceeded/);
      const budget = (await roomy.call('usage_get', {})).structuredContent?.budget;
      expect(budget).toMatchObject({ spent_usd: 0, reserved_usd: 0, left_usd: 1 });
    } finally {
      await roomy.close();
    }
  });
});

describe('a paid call whose reply is lost after the platform ran it', () => {
  it('keeps what it reserved as spent: the platform may have charged it', async () => {
    const roomy = await startHarness({ config: { maxSpendUsd: '1' } });
    try {
      // The search runs (and is charged), then the connection is cut before the reply.
      roomy.sandbox.faults.add({ match: { path: '/api/web' }, dropReply: true, times: 1 });
      const lost = await roomy.call('web_search', { query: 'lost on the way back' });
      expect(lost.isError).toBe(true);
      const budget = (await roomy.call('usage_get', {})).structuredContent?.budget;
      expect(budget).toMatchObject({ spent_usd: 0.006, reserved_usd: 0, left_usd: 0.994 });
    } finally {
      await roomy.close();
    }
  });
});

describe('a chat call reserves by the model’s pricing for its size', () => {
  it('fits a small budget with a small max_tokens, and is refused unsent when its size would pass it', async () => {
    const small = await startHarness({ config: { maxSpendUsd: '0.002' } });
    try {
      small.sandbox.clearRequests();
      const fits = await small.call('chat', { model: 'openai/gpt-sandbox', prompt: 'Hi', max_tokens: 50 });
      expect(fits.isError, textOf(fits)).toBeFalsy();
      const big = await small.call('chat', { model: 'openai/gpt-sandbox', prompt: 'Hi', max_tokens: 4000 });
      expect(textOf(big)).toMatch(
        /budget_exceeded\).*this call reserves 0\.05\d* USD \(openai\/gpt-sandbox at 2\.5\/10 USD per million input\/output tokens, up to \d+ input and 4000 output tokens, with a 25% margin\)/,
      );
      expect(small.sandbox.requests.filter((r) => r.path === '/api/v1/chat/completions')).toHaveLength(1);
    } finally {
      await small.close();
    }
  });
});
