import type { Hono } from 'hono';
import { requireKey } from '../billing.js';
import { jsonBody, optionalBoolean, optionalNumber, optionalObject, optionalString } from '../body.js';
import { PRICING_FIELD } from '../constants.js';
import { badRequest, typeForStatus } from '../errors.js';
import { type SseFrame, streamSse } from '../sse.js';
import { type Generation, generate, pricingOf, settle } from '../text/generate.js';
import { resolveTextModel } from '../text/resolve.js';
import { chunkText, contentText, estimateTokens } from '../text/tokens.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord, pad, sha256Hex } from '../util.js';

const SERVICE_TIERS = ['auto', 'default', 'standard', 'flex', 'priority', 'batch'];

/** Messages format (spec 2 §2.2, §4.1); errors use the messages envelope. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/v1/messages', 'messages');

  app.post('/api/v1/messages/count_tokens', (c) => {
    requireKey(c, ctx);
    const body = jsonBody(c);
    resolveTextModel(body.model);
    return c.json({ input_tokens: promptTokens(body, readMessages(body.messages)) });
  });

  app.post('/api/v1/messages', async (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const resolved = resolveTextModel(body.model);
    const maxTokens = body.max_tokens;
    if (typeof maxTokens !== 'number' || !Number.isFinite(maxTokens) || maxTokens < 1) {
      throw badRequest(
        'max_tokens: a finite number >= 1 is required.',
        'missing_required_parameter',
        'max_tokens',
      );
    }
    const messages = readMessages(body.messages);
    optionalString(body, 'service_tier', SERVICE_TIERS);
    optionalNumber(body, 'temperature', { min: 0, max: 1 });
    const thinking = readThinking(body, maxTokens);
    const beta = c.req.header('anthropic-beta') ?? '';
    const last = [...messages].reverse().find((m) => m.role === 'user');
    const gen = generate(ctx.state, {
      resolved,
      promptText: promptText(body, messages),
      lastUserText: contentText(last?.content),
      maxTokens,
      thinking,
      caching:
        resolved.model.caching &&
        (beta.includes('prompt-caching') || JSON.stringify(body).includes('"cache_control"')),
      cacheScope: key.key,
    });
    settle(ctx, key, gen);
    const id = `msg_sbx_${pad(c.get('seq'))}`;
    const oneHour = beta.includes('extended-cache-ttl');
    if (optionalBoolean(body, 'stream') !== true) return c.json(message(id, gen, oneHour));
    return streamSse(c, ctx, messageFrames(id, gen, oneHour), {
      errorFrames: (error) => [
        {
          event: 'error',
          data: { type: 'error', error: { type: typeForStatus(error.status), message: error.message } },
        },
      ],
    });
  });
}

interface Message {
  role: 'user' | 'assistant';
  content: unknown;
}

function readMessages(value: unknown): Message[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw badRequest('messages: a non-empty array is required.', 'missing_required_parameter', 'messages');
  }
  return value.map((m, i) => {
    if (!isRecord(m) || (m.role !== 'user' && m.role !== 'assistant')) {
      throw badRequest(
        `messages.${i}.role: must be user or assistant.`,
        'invalid_parameter_value',
        'messages',
      );
    }
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) {
      throw badRequest(
        `messages.${i}.content: must be a string or content blocks.`,
        'invalid_parameter_value',
        'messages',
      );
    }
    return { role: m.role, content: m.content };
  });
}

/** Thinking rules (spec 2 §4.1): budget >= 1024 and < max_tokens; honoured only by thinking models. */
function readThinking(body: Record<string, unknown>, maxTokens: number): boolean {
  const thinking = optionalObject(body, 'thinking');
  if (!thinking || thinking.type === 'disabled') return false;
  if (thinking.type !== 'enabled') {
    throw badRequest(
      'thinking.type: must be "enabled" or "disabled".',
      'invalid_parameter_value',
      'thinking',
    );
  }
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1024) {
    throw badRequest(
      'thinking.budget_tokens: must be an integer >= 1024.',
      'invalid_parameter_value',
      'thinking.budget_tokens',
    );
  }
  if (budget >= maxTokens) {
    throw badRequest(
      'thinking.budget_tokens: must be less than max_tokens.',
      'invalid_parameter_value',
      'thinking.budget_tokens',
    );
  }
  return true;
}

function promptText(body: Record<string, unknown>, messages: Message[]): string {
  return [contentText(body.system), ...messages.map((m) => contentText(m.content))]
    .filter(Boolean)
    .join('\n');
}

const promptTokens = (body: Record<string, unknown>, messages: Message[]): number =>
  estimateTokens(promptText(body, messages));

function usage(gen: Generation, oneHour: boolean, final: boolean): Record<string, unknown> {
  return {
    input_tokens: gen.promptTokens - gen.cachedTokens - gen.cacheWriteTokens,
    output_tokens: final ? gen.completionTokens : 1,
    cache_creation_input_tokens: gen.cacheWriteTokens,
    cache_read_input_tokens: gen.cachedTokens,
    cache_creation: {
      ephemeral_5m_input_tokens: oneHour ? 0 : gen.cacheWriteTokens,
      ephemeral_1h_input_tokens: oneHour ? gen.cacheWriteTokens : 0,
    },
    service_tier: 'standard',
  };
}

const stopReason = (gen: Generation) => (gen.finish === 'length' ? 'max_tokens' : 'end_turn');
const signatureOf = (gen: Generation) => `sbx-sig-${sha256Hex(gen.reasoning ?? '').slice(0, 32)}`;

function message(id: string, gen: Generation, oneHour: boolean): Record<string, unknown> {
  const content: unknown[] = [];
  if (gen.reasoning) content.push({ type: 'thinking', thinking: gen.reasoning, signature: signatureOf(gen) });
  content.push({ type: 'text', text: gen.text });
  return {
    ...envelope(id, gen),
    content,
    stop_reason: stopReason(gen),
    usage: usage(gen, oneHour, true),
    [PRICING_FIELD]: pricingOf(gen),
  };
}

const envelope = (id: string, gen: Generation) => ({
  id,
  type: 'message',
  role: 'assistant',
  model: gen.modelId,
  content: [] as unknown[],
  stop_reason: null as string | null,
  stop_sequence: null,
});

function messageFrames(id: string, gen: Generation, oneHour: boolean): SseFrame[] {
  const frames: SseFrame[] = [];
  const push = (event: string, data: Record<string, unknown>) =>
    frames.push({ event, data: { type: event, ...data } });
  push('message_start', {
    message: { ...envelope(id, gen), usage: usage(gen, oneHour, false) },
  });
  let index = 0;
  if (gen.reasoning) {
    push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const part of chunkText(gen.reasoning)) {
      push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: part } });
    }
    push('content_block_delta', { index, delta: { type: 'signature_delta', signature: signatureOf(gen) } });
    push('content_block_stop', { index });
    index += 1;
  }
  push('content_block_start', { index, content_block: { type: 'text', text: '' } });
  for (const part of chunkText(gen.text))
    push('content_block_delta', { index, delta: { type: 'text_delta', text: part } });
  push('content_block_stop', { index });
  push('message_delta', {
    delta: { stop_reason: stopReason(gen), stop_sequence: null },
    usage: { output_tokens: gen.completionTokens },
    [PRICING_FIELD]: pricingOf(gen),
  });
  push('message_stop', {});
  return frames;
}
