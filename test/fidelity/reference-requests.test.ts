import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 32 item 5: requests as the platform's published reference shows them, where the spec is
// silent or the client read it otherwise. Each case checks what the sandbox saw.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: { toolsets: 'all' },
    sandbox: {
      timing: {
        videoQueueMs: 0,
        videoRenderMs: 0,
        speechJobMs: 0,
        transcriptionJobMs: 0,
        pollHintMs: 10,
      },
    },
  });
});
afterAll(async () => {
  await h.close();
});

const sentTo = (method: string, path: string) =>
  h.sandbox.requests.filter((r) => r.method === method && r.path === path);
const ok = async (name: string, args: Record<string, unknown>) => {
  const result = await h.call(name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return out(result);
};

describe('provider discovery', () => {
  it('sends the model id as one percent-encoded segment', async () => {
    h.sandbox.clearRequests();
    const got = await ok('models_get', { id: 'openai/gpt-sandbox' });
    expect(got.providers.model).toBe('openai/gpt-sandbox');
    expect(sentTo('GET', '/api/models/openai%2Fgpt-sandbox/providers')).toHaveLength(1);
    expect(h.sandbox.requests.some((r) => r.path === '/api/models/openai/gpt-sandbox/providers')).toBe(false);
  });
});
