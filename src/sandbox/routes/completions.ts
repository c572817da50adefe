import type { Hono } from 'hono';
import { requireKey } from '../billing.js';
import { jsonBody, optionalBoolean, optionalNumber } from '../body.js';
import { PRICING_FIELD } from '../constants.js';
import { badRequest } from '../errors.js';
import { type SseFrame, streamSse } from '../sse.js';
import { pricingOf } from '../text/generate.js';
import { runText, textHeaders, usageOmitted } from '../text/pipeline.js';
import { readCachePlan } from '../text/prompt-cache.js';
import { resolveTextModel } from '../text/resolve.js';
import { chunkText } from '../text/tokens.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { pad } from '../util.js';
import { chatUsage } from './chat-format.js';

/** Legacy text completions (spec 2 §4.2, best effort): `choices[].text`, streaming supported. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.post('/api/v1/completions', async (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const resolved = resolveTextModel(body.model);
    const prompt = Array.isArray(body.prompt)
      ? body.prompt.filter((p) => typeof p === 'string').join('\n')
      : body.prompt;
    if (typeof prompt !== 'string' || prompt === '') {
      throw badRequest('`prompt` is required.', 'missing_required_parameter', 'prompt');
    }
    optionalNumber(body, 'temperature', { min: 0, max: 2 });
    optionalNumber(body, 'top_p', { min: 0, max: 1 });
    const maxTokens = optionalNumber(body, 'max_tokens', { min: 1, integer: true });
    const gen = runText(c, ctx, key, {
      resolved,
      segments: [{ text: prompt, message: 0 }],
      lastUserText: prompt,
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      reasoning: { reasoningOff: true, excludeReasoning: false },
      cache: readCachePlan(body, { suffix: resolved.caching, markers: false, messageCount: 1 }),
    });
    const usage = usageOmitted(c) ? {} : { usage: chatUsage(gen) };
    const base = {
      id: `cmpl-sbx-${pad(c.get('seq'))}`,
      object: 'text_completion',
      created: Math.floor(ctx.now() / 1000),
      model: gen.modelId,
    };
    const choice = (text: string, finish: string | null) => ({
      index: 0,
      text,
      logprobs: null,
      finish_reason: finish,
    });
    if (optionalBoolean(body, 'stream') !== true) {
      return c.json(
        { ...base, choices: [choice(gen.text, gen.finish)], ...usage, [PRICING_FIELD]: pricingOf(gen) },
        200,
        textHeaders(gen),
      );
    }
    const frames: SseFrame[] = chunkText(gen.text).map((part) => ({
      data: { ...base, choices: [choice(part, null)] },
    }));
    frames.push({
      data: {
        ...base,
        choices: [choice('', gen.finish)],
        ...usage,
        [PRICING_FIELD]: pricingOf(gen),
      },
    });
    return streamSse(c, ctx, [...frames, { data: '[DONE]' }], {
      headers: textHeaders(gen),
      errorFrames: (error) => [
        { data: { ...base, choices: [{ ...choice('', 'error') }], error } },
        { data: '[DONE]' },
      ],
    });
  });
}
