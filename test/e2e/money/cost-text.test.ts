/**
 * Every answer that spends says what it cost in its text, not only in its structured result
 * (issue 33, item 4). The tools that spend are read from the registry (an operation whose nature
 * is `spend`), so a new paid tool fails here until it has a case and states its cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICING_FIELD } from '../../../src/sandbox/constants.js';
import { toolModules } from '../../../tools/index.js';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';

// A 1x1 transparent PNG, sent inline as a data URL.
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: { toolsets: 'all', maxSpendUsd: '20' },
    sandbox: {
      timing: {
        videoQueueMs: 0,
        videoRenderMs: 0,
        speechJobMs: 0,
        transcriptionJobMs: 0,
        evalQueueMs: 0,
        evalStepMs: 0,
        pollHintMs: 10,
      },
    },
  });
});
afterAll(async () => {
  await h.close();
});

type Args = Record<string, unknown>;
/** A call of each tool that spends, as a person would make it. */
const CASES: Record<string, () => Promise<Args>> = {
  chat: async () => ({ model: 'openai/gpt-sandbox-mini', prompt: 'Hi', max_tokens: 20 }),
  web_search: async () => ({ query: 'reusable rockets' }),
  data_call: async () => ({
    endpoint: 'maps.search',
    method: 'GET',
    input: { query: 'coffee', location: 'Lisbon', limit: 2 },
  }),
  image_generate: async () => ({ model: 'pixel-lite', prompt: 'a red fox', resolution: '512x512' }),
  image_edit: async () => ({ prompt: 'make it night', images: [PIXEL] }),
  video_generate: async () => ({ model: 'sandbox/video-lite', prompt: 'a kite' }),
  video_extend: async () => {
    const source = await h.call('video_generate', { model: 'sandbox/video-pro', prompt: 'a river' });
    return { run_id: out(source).run_id, index: 0, prompt: 'the river reaches the sea' };
  },
  speech_generate: async () => ({ text: 'Hello there, world.', model: 'tts-mini', voice: 'alloy' }),
  music_generate: async () => ({ prompt: 'calm piano', model: 'music-lite' }),
  transcribe: async () => ({ url: 'https://example.com/talk.mp3', model: 'scribe-async' }),
  transcribe_video_links: async () => ({ urls: ['https://www.youtube.com/watch?v=abc123xyz'] }),
  embed: async () => ({ input: 'orbit', dimensions: 8 }),
  eval_run: async () => ({
    rows: [{ input: 'Name the largest planet', expected_output: 'Jupiter' }],
    candidates: [{ model: 'openai/gpt-sandbox-mini' }],
    scorers: ['contains'],
  }),
};

/** Every amount the text writes as "<number> USD". */
const amountsIn = (text: string): number[] =>
  [...text.matchAll(/(\d+(?:\.\d+)?(?:e-?\d+)?) USD/g)].map((m) => Number(m[1]));

async function spendingTools(): Promise<string[]> {
  const names: string[] = [];
  for (const [name, load] of Object.entries(toolModules)) {
    const tool = (await load()).default;
    if (Object.values(tool.operations).some((op) => op.nature === 'spend')) names.push(name);
  }
  return names.sort();
}

describe('cost in every answer that spends', () => {
  it('has a case for every tool that spends', async () => {
    expect(Object.keys(CASES).sort()).toEqual(await spendingTools());
  });

  it.each(Object.keys(CASES))('%s states its cost in its text', async (name) => {
    const tool = (await toolModules[name]!()).default;
    const result = await h.call(name, await CASES[name]!());
    expect(result.isError, textOf(result)).toBeFalsy();
    const spent = tool.cost?.spent(out(result) as never);
    expect(spent, `${name} states no cost in its result`).toBeTypeOf('number');
    expect(amountsIn(textOf(result)), textOf(result)).toContain(spent);
  });

  it('says a free answer cost 0 USD', async () => {
    const free = await h.call('data_call', {
      endpoint: 'contacts.email_count',
      input: { domain: 'example.com' },
    });
    expect(free.isError, textOf(free)).toBeFalsy();
    expect(out(free).cost).toBe(0);
    expect(amountsIn(textOf(free))).toContain(0);
  });

  it('says when the platform stated no cost, and counts what the call reserved', async () => {
    const before = out(await h.call('usage_get', {})).budget.spent_usd;
    h.sandbox.faults.add({ match: { path: '/api/web' }, reshape: { drop: ['cost', PRICING_FIELD] } });
    const search = await h.call('web_search', { query: 'unpriced' });
    expect(search.isError, textOf(search)).toBeFalsy();
    expect(out(search).cost).toBeUndefined();
    expect(textOf(search)).toMatch(
      /Cost: not stated by the platform; 0\.006 USD counted against the spend budget \(what this call reserved\)\.$/,
    );
    const after = out(await h.call('usage_get', {})).budget.spent_usd;
    expect(after).toBeCloseTo(before + 0.006, 6);
  });

  it('says a job still running costs what it finishes at, and what is held until then', async () => {
    const run = await h.call('chat', {
      model: 'openai/gpt-sandbox-mini',
      format: 'responses',
      prompt: 'Later',
      max_tokens: 100,
      background: 0,
    });
    expect(out(run).next, textOf(run)).toBeDefined();
    expect(textOf(run)).toMatch(
      /Cost: known when it finishes; 0\.0000\d+ USD is held against the spend budget until then\.$/,
    );
  });
});
