import type { Hono } from 'hono';
import { requireKey } from '../billing.js';
import { jsonBody, optionalString } from '../body.js';
import { SANDBOX_WORD } from '../constants.js';
import { badRequest } from '../errors.js';
import { pricingOf } from '../text/generate.js';
import { runText, textHeaders } from '../text/pipeline.js';
import { type PromptSegment, readCachePlan } from '../text/prompt-cache.js';
import { resolveTextModel } from '../text/resolve.js';
import { contentText } from '../text/tokens.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord } from '../util.js';

/** The tag pair around the legacy reply's JSON block carries the platform's word: `<orbit>{...}</orbit>`. */
export const TALK_TAG = SANDBOX_WORD;

/**
 * Legacy text route (spec 2 §4.2): `POST /api/talk-to-gpt` with `prompt`, `model` and earlier
 * `messages`; the reply is plain text followed by a JSON block with `cost`, `inputTokens` and
 * `outputTokens` inside a tag pair named after the platform. Errors use the legacy envelope.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/talk-to-gpt', 'legacy');
  app.post('/api/talk-to-gpt', (c) => {
    // Spec 2 §4.2 marks this route `x-api-key`: a Bearer key is refused, as a strict platform would.
    const key = requireKey(c, ctx, { onlyApiKeyHeader: true });
    const body = jsonBody(c);
    const resolved = resolveTextModel(body.model);
    const history = readHistory(body.messages);
    const prompt = optionalString(body, 'prompt');
    const turns = prompt ? [...history, { role: 'user', text: prompt }] : history;
    const users = turns.filter((t) => t.role === 'user');
    if (users.length === 0) {
      throw badRequest(
        '`prompt` is required (or `messages` ending with a user turn).',
        'missing_required_parameter',
        'prompt',
      );
    }
    const segments: PromptSegment[] = turns.map((t, i) => ({ text: t.text, message: i }));
    const gen = runText(c, ctx, key, {
      resolved,
      segments,
      lastUserText: users.at(-1)?.text ?? '',
      cache: readCachePlan(body, { suffix: resolved.caching, markers: false, messageCount: turns.length }),
    });
    const footer = JSON.stringify({
      cost: pricingOf(gen).cost,
      inputTokens: gen.promptTokens,
      outputTokens: gen.completionTokens,
    });
    return c.body(`${gen.text}\n\n<${TALK_TAG}>${footer}</${TALK_TAG}>`, 200, {
      'Content-Type': 'text/plain; charset=utf-8',
      ...textHeaders(gen),
    });
  });
}

function readHistory(value: unknown): { role: string; text: string }[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw badRequest('`messages` must be an array.', 'invalid_parameter_value', 'messages');
  return value.map((m, i) => {
    if (!isRecord(m) || typeof m.role !== 'string')
      throw badRequest(`messages[${i}] needs a role and content.`, 'invalid_parameter_value', 'messages');
    return { role: m.role, text: contentText(m.content) };
  });
}
