import { describe, expect, it } from 'vitest';
import { post, useSandbox } from './helpers.js';

const TAGGED = /^([\s\S]*)\n\n<orbit>(\{.*\})<\/orbit>$/;

describe('sandbox legacy talk-to-gpt', () => {
  const sandbox = useSandbox();
  const talk = (body: unknown, headers: Record<string, string>) =>
    post(sandbox(), '/api/talk-to-gpt', body, headers);

  it('replies with plain text, then the cost and tokens as JSON inside the platform-named tag pair', async () => {
    const key = sandbox().state.createKey({ balance: 2 });
    const res = await talk({ model: 'openai/gpt-sandbox', prompt: 'Say hi' }, { 'x-api-key': key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const match = TAGGED.exec(await res.text());
    expect(match).not.toBeNull();
    expect(match![1]).toMatch(/^Sandbox reply to: "Say hi"\./);
    const footer = JSON.parse(match![2]!) as { cost: number; inputTokens: number; outputTokens: number };
    expect(footer).toEqual({
      cost: expect.any(Number),
      inputTokens: Math.ceil('Say hi'.length / 4),
      outputTokens: Math.ceil(match![1]!.length / 4),
    });
    expect(footer.cost).toBeCloseTo((footer.inputTokens * 2.5 + footer.outputTokens * 10) / 1e6, 9);
    expect(sandbox().state.balance(key)).toBeCloseTo(2 - footer.cost, 9);
  });

  it('takes earlier messages as context, counted as input', async () => {
    const res = await talk(
      {
        model: 'openai/gpt-sandbox',
        prompt: 'And now?',
        messages: [
          { role: 'user', content: 'First question' },
          { role: 'assistant', content: 'First answer' },
        ],
      },
      { 'x-api-key': sandbox().state.createKey() },
    );
    const [, text, json] = TAGGED.exec(await res.text())!;
    expect(text).toMatch(/^Sandbox reply to: "And now\?"/);
    expect(JSON.parse(json!).inputTokens).toBe(
      Math.ceil('First question\nFirst answer\nAnd now?'.length / 4),
    );
  });

  it('uses the legacy error envelope: 401 without a key, 400 without a prompt, 402 when short', async () => {
    const none = await talk({ model: 'openai/gpt-sandbox', prompt: 'x' }, {});
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: expect.any(String), status: 401, code: 'missing_api_key' });
    const auth = { 'x-api-key': sandbox().state.createKey() };
    const missing = await talk({ model: 'openai/gpt-sandbox' }, auth);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ status: 400, code: 'missing_required_parameter' });
    const broke = await talk(
      { model: 'openai/gpt-sandbox', prompt: 'x' },
      { 'x-api-key': sandbox().state.createKey({ balance: 0 }) },
    );
    expect(broke.status).toBe(402);
    expect(await broke.json()).toEqual({
      error: 'Insufficient balance',
      requiredBalance: expect.any(Number),
      status: 402,
    });
  });
});

describe('sandbox legacy completions route', () => {
  const sandbox = useSandbox();

  it('honours the routing header and suffixes like the chat route', async () => {
    const res = await post(
      sandbox(),
      '/api/v1/completions',
      { model: 'openai/gpt-sandbox-mini:cheap', prompt: 'Once', max_tokens: 3 },
      { authorization: `Bearer ${sandbox().state.createKey()}` },
    );
    expect(res.headers.get('x-provider')).toBe('budget-compute');
    const body = await res.json();
    expect(body.choices[0]).toMatchObject({ finish_reason: 'length', text: expect.any(String) });
    expect(body.choices[0].text).toHaveLength(12);
    expect(body.x_orbit_pricing).toMatchObject({ inputTokens: 1, outputTokens: 3 });
  });
});
