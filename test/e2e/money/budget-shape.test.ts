/**
 * The budget shapes a call before it refuses it, and bounds what it lets through (issue 33,
 * item 3). Each case runs under `--max-spend-usd 0.05`, on a server of its own (a budget of its
 * own) against one sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';

let sandbox: Sandbox;
const open: Harness[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({
    quiet: true,
    timing: { evalQueueMs: 0, evalStepMs: 0, pollHintMs: 10 },
  });
});
afterAll(async () => {
  for (const h of open) await h.close();
  await sandbox.close();
});

/** A server with a 0.05 USD budget of its own. */
async function withBudget(key?: string): Promise<Harness> {
  const h = await startHarness({
    sharedSandbox: sandbox,
    config: { maxSpendUsd: '0.05', toolsets: 'all' },
    ...(key ? { credentials: [{ kind: 'api_key' as const, value: key, source: 'env' }] } : {}),
  });
  open.push(h);
  return h;
}
const budgetOf = async (h: Harness) => out(await h.call('usage_get', {})).budget as Record<string, number>;
const sentTo = (path: string) => sandbox.requests.filter((r) => r.method === 'POST' && r.path === path);
const CHAT = '/api/v1/chat/completions';

describe('a chat without max_tokens', () => {
  it('is sent with the max_tokens the budget can pay, and says so (it was refused for 16,384 tokens)', async () => {
    const h = await withBudget();
    const before = sentTo(CHAT).length;
    const chat = await h.call('chat', { model: 'openai/gpt-sandbox', prompt: 'Hi' });
    expect(chat.isError, textOf(chat)).toBeFalsy();
    const shaped = out(chat).shaped_by_budget.max_tokens as number;
    // 0.05 USD at 10 USD per million output tokens with the 25% margin: about 4,000 tokens.
    expect(shaped).toBeGreaterThan(3900);
    expect(shaped).toBeLessThan(4000);
    expect(textOf(chat)).toContain(
      `The spend budget sent max_tokens ${shaped}: what its 0.05 USD left pays for (16384 output tokens would reserve 0.205`,
    );
    expect(
      sentTo(CHAT)
        .slice(before)
        .map((r) => r.json),
    ).toEqual([expect.objectContaining({ max_tokens: shaped })]);
    const after = await budgetOf(h);
    expect(after.reserved_usd).toBe(0);
    expect(after.spent_usd).toBeCloseTo(out(chat).cost.amount, 6);
  });

  it('is refused only when what is left cannot buy a useful answer, naming max_tokens and what is left', async () => {
    const h = await withBudget();
    // A background response without max_tokens holds everything that is left until it ends.
    const held = await h.call('chat', {
      model: 'openai/gpt-sandbox',
      format: 'responses',
      prompt: 'A long job',
      background: 0,
    });
    expect(held.isError, textOf(held)).toBeFalsy();
    expect((await budgetOf(h)).left_usd).toBeLessThan(0.0001);
    const before = sentTo(CHAT).length;
    const refused = await h.call('chat', { model: 'openai/gpt-sandbox', prompt: 'Hi' });
    expect(textOf(refused)).toMatch(
      /budget_exceeded\).*up to \d+ input and 64 output tokens[\s\S]*Fix: Nothing was sent\. 0(?:\.0000\d+)? USD left pays for fewer than 64 output tokens \(max_tokens\) of openai\/gpt-sandbox/,
    );
    expect(sentTo(CHAT).length).toBe(before);
  });

  it('with a max_tokens too large is refused saying which max_tokens fits', async () => {
    const h = await withBudget();
    const refused = await h.call('chat', { model: 'openai/gpt-sandbox', prompt: 'Hi', max_tokens: 8000 });
    expect(textOf(refused)).toMatch(
      /Fix: Nothing was sent\. Pass max_tokens 39\d\d or less \(what 0\.05 USD left pays for\), wait for running paid calls/,
    );
  });
});

describe('reasoning', () => {
  it('a :thinking chat reserves for its reasoning, not only for max_tokens 16', async () => {
    const h = await withBudget();
    const before = sentTo(CHAT).length;
    const refused = await h.call('chat', {
      model: 'anthropic/claude-sandbox:thinking',
      prompt: 'Hi',
      max_tokens: 16,
    });
    expect(textOf(refused)).toMatch(
      /budget_exceeded\).*this call reserves 0\.077\d* USD \(anthropic\/claude-sandbox at 3\/15 USD per million input\/output tokens, up to \d+ input and 16 output tokens and 4096 reasoning tokens \(a stated ceiling: nothing sent bounds reasoning\)/,
    );
    expect(textOf(refused)).toMatch(/pick a cheaper model or a lower reasoning_effort/);
    expect(sentTo(CHAT).length).toBe(before);
    // With a lower effort its reasoning fits, and what it spends stays within what it reserved.
    const low = await h.call('chat', {
      model: 'anthropic/claude-sandbox:thinking',
      prompt: 'Hi',
      max_tokens: 16,
      reasoning_effort: 'low',
    });
    expect(low.isError, textOf(low)).toBeFalsy();
    expect(out(low).usage.output_tokens).toBeGreaterThan(16);
    const after = await budgetOf(h);
    expect(after.reserved_usd).toBe(0);
    expect(after.spent_usd).toBeCloseTo(out(low).cost.amount, 6);
  });

  it('a reasoning model without max_tokens is sent one that leaves room for its reasoning', async () => {
    const h = await withBudget();
    const before = sentTo(CHAT).length;
    const chat = await h.call('chat', { model: 'TEE/deepseek-sandbox', prompt: 'Hi' });
    expect(chat.isError, textOf(chat)).toBeFalsy();
    // 16,384 output tokens at 2 USD per million, with the margin, plus 4,096 reasoning tokens pass 0.05 USD.
    const shaped = out(chat).shaped_by_budget.max_tokens as number;
    expect(shaped + 4096).toBeLessThanOrEqual(Math.floor((0.05 / 1.25) * 5e5));
    expect(sentTo(CHAT).slice(before)[0]?.json).toMatchObject({ max_tokens: shaped });
  });
});

describe('an eval run', () => {
  it('with a 200 KB inline row is refused before it starts (it reserved 0.02 and spent 0.13)', async () => {
    const h = await withBudget();
    const before = sentTo('/api/v1/evals/experiments').length;
    const run = await h.call('eval_run', {
      rows: [{ input: 'x'.repeat(200_000) }],
      candidates: [{ model: 'openai/gpt-sandbox' }],
    });
    expect(textOf(run)).toMatch(
      /budget_exceeded\).*this call reserves 0\.5\d* USD \(1 rows x 1 candidates: 0\.5\d* USD of answers \(each row's size in and the model's max_output_tokens out, with a 25% margin\)\)/,
    );
    expect(sentTo('/api/v1/evals/experiments').length).toBe(before);
    expect(await budgetOf(h)).toMatchObject({ spent_usd: 0, reserved_usd: 0 });
  });

  it('of a dataset version reserves from the version’s rows, and its judges at a stated ceiling', async () => {
    const h = await withBudget();
    const dataset = await h.call('evals_write', {
      operation: 'datasets.create',
      name: 'Planets',
      rows: [
        { input: 'Name the largest planet', expected_output: 'Jupiter' },
        { input: 'Name the smallest planet', expected_output: 'Mercury' },
      ],
    });
    const version = await h.call('evals_write', { operation: 'datasets.freeze', id: out(dataset).data.id });
    const run = await h.call('eval_run', {
      dataset_version_id: out(version).data.id,
      candidates: [{ model: 'openai/gpt-sandbox-mini' }],
      scorers: ['contains'],
    });
    // 2 rows of gpt-sandbox-mini (16,384 output tokens at 0.6 USD per million): about 0.025 USD,
    // where the tool's ceiling of 2 USD refused it.
    expect(run.isError, textOf(run)).toBeFalsy();
    expect(out(run).cost_usd).toBeGreaterThan(0);
    const after = await budgetOf(h);
    expect(after.reserved_usd).toBe(0);
    expect(after.spent_usd).toBeCloseTo(out(run).cost_usd, 6);
    const judged = await h.call('eval_run', {
      dataset_version_id: out(version).data.id,
      candidates: [{ model: 'openai/gpt-sandbox-mini' }],
      scorers: ['llm_judge'],
    });
    expect(textOf(judged)).toMatch(
      /2 rows x 1 candidates: 0\.02\d* USD of answers .* and 2 judge calls at a ceiling of 0\.02 USD each/,
    );
  });
});

describe('a key whose own spend cap on the platform is 0', () => {
  it('is told it may not spend and where to raise the cap, not to wait', async () => {
    const key = sandbox.state.createKey({ dailyUsdLimit: 0 });
    const h = await withBudget(key);
    const search = await h.call('web_search', { query: 'fox' });
    expect(textOf(search)).toMatch(
      /^Error \(spend_capped, HTTP 429\): .*\nPlatform code: daily_usd_limit_exceeded\nFix: This key may not spend \(its cap is 0\); raise it on the platform's key settings\. Waiting does not help\./,
    );
    expect(textOf(search)).not.toMatch(/wait \d+ s|Retry after/);
  });

  it('an app spend cap of 0 set at sign-in says the same', async () => {
    const key = sandbox.state.createKey({
      grant: {
        clientName: 'orbit-mcp',
        scope: 'models.read api.use',
        origins: [],
        spendCap: { usd: 0, period: 'monthly', window: 0, spentNanos: 0 },
      },
    });
    const h = await withBudget(key);
    const search = await h.call('web_search', { query: 'fox' });
    expect(textOf(search)).toMatch(
      /Fix: This key may not spend \(its cap is 0\); raise it on the platform's key settings/,
    );
  });

  it('a cap that is reached (not 0) says when it starts again', async () => {
    const key = sandbox.state.createKey({ dailyUsdLimit: 0.001 });
    const h = await withBudget(key);
    const search = await h.call('web_search', { query: 'fox' });
    expect(textOf(search)).toMatch(
      /Fix: This key's spend cap on the platform is reached\. It starts again at \d{4}-\d\d-\d\dT00:00:0\d\.\d{3}Z\. Raise it on the platform's key settings to spend before then\./,
    );
  });
});

describe('media and data calls', () => {
  it('keep their exact prices: an image reserves its catalog price, not the tool ceiling, and is never shaped', async () => {
    const h = await withBudget();
    // 2 images at 0.001 USD: where the ceiling of 0.5 USD refused every image under 0.05.
    const image = await h.call('image_generate', {
      model: 'pixel-lite',
      prompt: 'a red fox',
      resolution: '512x512',
      n: 2,
    });
    expect(image.isError, textOf(image)).toBeFalsy();
    expect(out(image).shaped_by_budget).toBeUndefined();
    expect(await budgetOf(h)).toMatchObject({ reserved_usd: 0, spent_usd: out(image).cost });
    // Dearer than what is left: refused at its exact price, with nothing asked of max_tokens.
    const before = sentTo('/api/v1/images').length;
    const pro = await h.call('image_generate', {
      model: 'sandbox/image-pro',
      prompt: 'a poster',
      resolution: '1536x1024',
    });
    expect(textOf(pro)).toMatch(
      /budget_exceeded\).*this call reserves 0\.06 USD \(sandbox\/image-pro at the catalog's 0\.06 USD per image at 1536x1024, 1 image\)[\s\S]*Fix: Nothing was sent\. Ask for fewer images, a smaller resolution or a cheaper model/,
    );
    expect(textOf(pro)).not.toContain('max_tokens');
    expect(sentTo('/api/v1/images').length).toBe(before);
  });

  it('a search reserves its listed price and settles to what it cost', async () => {
    const h = await withBudget();
    const search = await h.call('web_search', { query: 'fox' });
    expect(search.isError, textOf(search)).toBeFalsy();
    expect(await budgetOf(h)).toMatchObject({ reserved_usd: 0, spent_usd: 0.006 });
  });
});

describe('a call whose worst case is not known before it is sent', () => {
  it('reserves the stated ceiling of its tool, and says which', async () => {
    const h = await withBudget();
    const music = await h.call('music_generate', { prompt: 'calm piano', model: 'music-lite' });
    expect(textOf(music)).toMatch(
      /budget_exceeded\).*this call reserves 1 USD \(a ceiling of 1 USD per music_generate call, whose cost is not known before it is sent\)/,
    );
  });
});
