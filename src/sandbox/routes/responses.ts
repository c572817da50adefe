import type { Hono } from 'hono';
import { requireKey } from '../billing.js';
import { jsonBody, optionalBoolean, optionalNumber, optionalString } from '../body.js';
import { badRequest, SandboxError } from '../errors.js';
import { type SseFrame, streamSse } from '../sse.js';
import { generate, settle } from '../text/generate.js';
import { readCaching, readReasoning } from '../text/options.js';
import { resolveTextModel } from '../text/resolve.js';
import { contentText } from '../text/tokens.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord, pad } from '../util.js';
import { responseFrames, responseObject, type StoredResponse } from './responses-format.js';

/** Responses format (spec 2 §4.2, §6): stateful through `previous_response_id`, stored per key. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const store = ctx.state.collection<StoredResponse>('responses');

  app.get('/api/v1/responses/:id', (c) => {
    const key = requireKey(c, ctx);
    const stored = store.get(c.req.param('id'));
    if (!stored || stored.owner !== key.key) throw notFound(c.req.param('id'));
    return c.json(stored.body);
  });

  app.post('/api/v1/responses', async (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const resolved = resolveTextModel(body.model);
    const input = readInput(body.input);
    const previousId = optionalString(body, 'previous_response_id');
    const previous = previousId === undefined ? undefined : store.get(previousId);
    if (previousId !== undefined && (!previous || previous.owner !== key.key)) throw notFound(previousId);
    optionalNumber(body, 'retention_days', { min: 0, max: 365, integer: true });
    optionalNumber(body, 'retentionDays', { min: 0, max: 365, integer: true });
    const instructions = optionalString(body, 'instructions') ?? '';
    const history = previous ? `${previous.transcript}\n` : '';
    const gen = generate(ctx.state, {
      resolved,
      promptText: [history, instructions, ...input.map((m) => m.text)].filter(Boolean).join('\n'),
      lastUserText: [...input].reverse().find((m) => m.role === 'user')?.text ?? '',
      maxTokens: optionalNumber(body, 'max_output_tokens', { min: 1, integer: true }),
      ...readReasoning(body),
      caching: readCaching(body, resolved.model, resolved.caching),
      cacheScope: key.key,
    });
    settle(ctx, key, gen);
    const id = `resp_sbx_${pad(c.get('seq'))}`;
    const created = Math.floor(ctx.now() / 1000);
    const final = responseObject(id, created, gen, previousId);
    if (optionalBoolean(body, 'store') !== false) {
      const transcript = `${history}${input.map((m) => m.text).join('\n')}\n${gen.text}`;
      store.set(id, { owner: key.key, body: final, transcript });
    }
    // Background work is acknowledged as queued; GET /api/v1/responses/{id} then shows it completed.
    if (optionalBoolean(body, 'background') === true)
      return c.json({ ...final, status: 'queued', output: [], output_text: '', usage: null });
    if (optionalBoolean(body, 'stream') !== true) return c.json(final);
    const frames: SseFrame[] = responseFrames(final, gen);
    return streamSse(c, ctx, frames, {
      errorFrames: (error, sent) => [
        {
          data: {
            type: 'response.failed',
            sequence_number: sent,
            response: {
              ...final,
              status: 'failed',
              output: [],
              output_text: '',
              error: { code: error.code, message: error.message, status: error.status },
            },
          },
        },
        { data: '[DONE]' },
      ],
    });
  });
}

const notFound = (id: string) =>
  new SandboxError(404, `Response "${id}" not found for this key.`, {
    code: 'not_found',
    param: 'previous_response_id',
  });

interface InputMessage {
  role: string;
  text: string;
}

/** `input` is a string or a list of messages/items whose content is a string or parts. */
function readInput(value: unknown): InputMessage[] {
  if (value === undefined || value === null)
    throw badRequest('`input` is required.', 'missing_required_parameter', 'input');
  if (typeof value === 'string') return [{ role: 'user', text: value }];
  if (!Array.isArray(value) || value.length === 0) {
    throw badRequest(
      '`input` must be a string or a non-empty array of items.',
      'invalid_parameter_value',
      'input',
    );
  }
  return value.map((item, i) => {
    if (!isRecord(item))
      throw badRequest(`input[${i}] must be an object.`, 'invalid_parameter_value', 'input');
    const role = typeof item.role === 'string' ? item.role : 'user';
    const text = contentText(item.content ?? item.output ?? item.text);
    return { role, text };
  });
}
