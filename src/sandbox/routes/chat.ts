import type { Hono } from 'hono';
import { requireKey } from '../billing.js';
import { jsonBody, optionalBoolean, optionalNumber, optionalObject } from '../body.js';
import { PRICING_FIELD } from '../constants.js';
import { badRequest } from '../errors.js';
import { type SseFrame, streamSse } from '../sse.js';
import { type Generation, generate, pricingOf, settle } from '../text/generate.js';
import { readCaching, readReasoning, readServiceTier } from '../text/options.js';
import { resolveTextModel } from '../text/resolve.js';
import { chunkText, contentText } from '../text/tokens.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord, pad } from '../util.js';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

/** Chat completions (spec 2 §4.2, §6). */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.post('/api/v1/chat/completions', async (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const resolved = resolveTextModel(body.model);
    const messages = readMessages(body.messages);
    const maxTokens =
      optionalNumber(body, 'max_completion_tokens', { min: 1, integer: true }) ??
      optionalNumber(body, 'max_tokens', { min: 1, integer: true });
    optionalNumber(body, 'temperature', { min: 0, max: 2 });
    optionalNumber(body, 'top_p', { min: 0, max: 1 });
    readServiceTier(body, resolved.model);
    const stream = optionalBoolean(body, 'stream') === true;
    const includeUsage = optionalObject(body, 'stream_options')?.include_usage === true;
    const gen = generate(ctx.state, {
      resolved,
      promptText: messages.map((m) => contentText(m.content)).join('\n'),
      lastUserText: contentText([...messages].reverse().find((m) => m.role === 'user')?.content),
      maxTokens,
      ...readReasoning(body),
      caching: readCaching(body, resolved.model, resolved.caching),
      cacheScope: key.key,
    });
    settle(ctx, key, gen);
    const id = `chatcmpl-sbx-${pad(c.get('seq'))}`;
    const created = Math.floor(ctx.now() / 1000);
    if (!stream) return c.json(completion(id, created, gen));
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: gen.modelId,
      choices,
      ...extra,
    });
    return streamSse(c, ctx, chatFrames(gen, includeUsage, chunk), {
      errorFrames: (error) => [
        { data: chunk([{ index: 0, delta: {}, finish_reason: 'error' }], { error }) },
        { data: '[DONE]' },
      ],
    });
  });
}

interface Message {
  role: string;
  content: unknown;
}

function readMessages(value: unknown): Message[] {
  if (value === undefined)
    throw badRequest('`messages` is required.', 'missing_required_parameter', 'messages');
  if (!Array.isArray(value) || value.length === 0) {
    throw badRequest('`messages` must be a non-empty array.', 'invalid_parameter_value', 'messages');
  }
  return value.map((m, i) => {
    if (!isRecord(m) || typeof m.role !== 'string' || !ROLES.includes(m.role)) {
      throw badRequest(
        `messages[${i}] needs a role (${ROLES.join(', ')}) and content.`,
        'invalid_parameter_value',
        'messages',
      );
    }
    return { role: m.role, content: m.content };
  });
}

export function chatUsage(gen: Generation): Record<string, unknown> {
  return {
    prompt_tokens: gen.promptTokens,
    completion_tokens: gen.completionTokens,
    total_tokens: gen.promptTokens + gen.completionTokens,
    prompt_tokens_details: { cached_tokens: gen.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: gen.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
    ...(gen.caching
      ? { cache_creation_input_tokens: gen.cacheWriteTokens, cache_read_input_tokens: gen.cachedTokens }
      : {}),
  };
}

function completion(id: string, created: number, gen: Generation): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion',
    created,
    model: gen.modelId,
    system_fingerprint: 'fp_sandbox',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: gen.text,
          refusal: null,
          ...(gen.reasoning ? { reasoning: gen.reasoning } : {}),
        },
        logprobs: null,
        finish_reason: gen.finish,
      },
    ],
    usage: chatUsage(gen),
    [PRICING_FIELD]: pricingOf(gen),
  };
}

type ChunkFn = (choices: unknown[], extra?: Record<string, unknown>) => Record<string, unknown>;

/** Role chunk, reasoning deltas, content deltas, the finish chunk, the usage chunk if asked, `[DONE]`. */
function chatFrames(gen: Generation, includeUsage: boolean, chunk: ChunkFn): SseFrame[] {
  const delta = (d: Record<string, unknown>) => chunk([{ index: 0, delta: d, finish_reason: null }]);
  const frames: SseFrame[] = [{ data: delta({ role: 'assistant', content: '' }) }];
  for (const part of chunkText(gen.reasoning ?? '')) frames.push({ data: delta({ reasoning: part }) });
  for (const part of chunkText(gen.text)) frames.push({ data: delta({ content: part }) });
  // Pricing rides on the last JSON chunk only: the usage chunk when there is one.
  const pricing = { [PRICING_FIELD]: pricingOf(gen) };
  frames.push({
    data: chunk([{ index: 0, delta: {}, finish_reason: gen.finish }], includeUsage ? {} : pricing),
  });
  if (includeUsage) frames.push({ data: chunk([], { usage: chatUsage(gen), ...pricing }) });
  frames.push({ data: '[DONE]' });
  return frames;
}
