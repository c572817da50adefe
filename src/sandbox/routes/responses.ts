import type { Hono } from 'hono';
import { requireKey } from '../billing.js';
import { jsonBody, optionalBoolean, optionalNumber, optionalString } from '../body.js';
import { badRequest } from '../errors.js';
import { hintHeaders } from '../media/jobs.js';
import { streamSse } from '../sse.js';
import type { Generation } from '../text/generate.js';
import { readReasoning } from '../text/options.js';
import { runText, textHeaders, usageOmitted } from '../text/pipeline.js';
import { readCachePlan } from '../text/prompt-cache.js';
import { resolveTextModel } from '../text/resolve.js';
import {
  cancelResponse,
  currentBody,
  expiryOf,
  findResponse,
  pendingBody,
  responses,
  retentionFor,
  statusOf,
  type Turn,
} from '../text/response-store.js';
import { readResponsesTools } from '../text/tool-input.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { pad } from '../util.js';
import { callIdOf, type ResponseMeta, responseFrames, responseObject } from './responses-format.js';
import { readInput, responseSegments, trailingResults } from './responses-input.js';

const RETENTION = { min: 0, max: 365, integer: true };

/**
 * Responses format (spec 2 §4.2, §6, §8): stored per key with a retention, continued through
 * `previous_response_id`, run in the background on request, read back by id.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.get('/api/v1/responses/:id', (c) => {
    const stored = findResponse(ctx, requireKey(c, ctx), c.req.param('id'));
    const status = statusOf(ctx, stored);
    if (status === 'queued' || status === 'in_progress') hintHeaders(c, ctx);
    return c.json(currentBody(ctx, stored));
  });

  // Not in the spec's text; the common responses format has it, so background work can be stopped.
  app.post('/api/v1/responses/:id/cancel', (c) => {
    const stored = findResponse(ctx, requireKey(c, ctx), c.req.param('id'));
    cancelResponse(ctx, stored);
    return c.json(currentBody(ctx, stored));
  });

  app.post('/api/v1/responses', async (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const resolved = resolveTextModel(body.model);
    const previousId = optionalString(body, 'previous_response_id');
    const previous =
      previousId === undefined ? undefined : findResponse(ctx, key, previousId, 'previous_response_id');
    if (previous && ['queued', 'in_progress'].includes(statusOf(ctx, previous))) {
      throw badRequest(
        `Response "${previousId}" is still running; continue from it once it has completed.`,
        'invalid_parameter_value',
        'previous_response_id',
      );
    }
    const history = previous?.history ?? [];
    const input = readInput(body.input, history);
    const asked =
      optionalNumber(body, 'retention_days', RETENTION) ?? optionalNumber(body, 'retentionDays', RETENTION);
    const store = optionalBoolean(body, 'store') !== false;
    const background = optionalBoolean(body, 'background') === true;
    const stream = optionalBoolean(body, 'stream') === true;
    const retention = retentionFor(ctx.state, key, asked);
    if (background && (!store || retention === 0)) {
      throw badRequest(
        'Background responses are stored until read: send store true and retention_days of at least 1.',
        'invalid_parameter_value',
        'background',
      );
    }
    const tools = readResponsesTools(body, resolved.model);
    const turns = [...history, ...input];
    const users = turns.filter((t) => t.role === 'user').map((t) => t.text);
    const maxTokens = optionalNumber(body, 'max_output_tokens', { min: 1, integer: true });
    const gen = runText(c, ctx, key, {
      resolved,
      segments: responseSegments(tools?.tools, optionalString(body, 'instructions') ?? '', turns),
      lastUserText: users.at(-1) ?? '',
      earlierUserTexts: users.slice(0, -1),
      toolResults: trailingResults(input),
      ...(tools ? { tools } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      reasoning: readReasoning(body),
      cache: readCachePlan(body, { suffix: resolved.caching, markers: false, messageCount: turns.length }),
    });
    const now = ctx.now();
    const kept = store && retention > 0;
    const meta: ResponseMeta = {
      id: `resp_sbx_${pad(c.get('seq'))}`,
      created: Math.floor(now / 1000),
      previousId,
      store,
      background,
      expiresAt: kept ? Math.floor(expiryOf(now, retention) / 1000) : null,
      omitUsage: usageOmitted(c),
    };
    const final = responseObject(meta, gen);
    if (kept) {
      responses(ctx).set(meta.id, {
        id: meta.id,
        owner: key.key,
        key,
        body: final,
        history: [...turns, outputTurn(meta.id, gen)],
        createdAt: now,
        expiresAt: expiryOf(now, retention),
        retentionDays: retention,
        // A streamed request runs in the foreground whatever it asked.
        background: background && !stream,
        costUsd: gen.costUsd,
      });
    }
    if (background && !stream) return c.json(pendingBody(final, 'queued'), 200, textHeaders(gen));
    if (!stream) return c.json(final, 200, textHeaders(gen));
    return streamSse(c, ctx, responseFrames(final, gen), {
      headers: textHeaders(gen),
      errorFrames: (error, sent) => [
        {
          data: {
            type: 'response.failed',
            sequence_number: sent,
            response: {
              ...pendingBody(final, 'in_progress'),
              status: 'failed',
              error: { code: error.code, message: error.message, status: error.status },
            },
          },
        },
        { data: '[DONE]' },
      ],
    });
  });
}

/** This response's output as the next turn of its conversation. */
function outputTurn(id: string, gen: Generation): Turn {
  const calls = gen.toolCalls.map((call, i) => ({ callId: callIdOf(id, i), name: call.name }));
  const text = gen.text || gen.toolCalls.map((call) => `${call.name}(${call.arguments})`).join('\n');
  return { role: 'assistant', text, ...(calls.length > 0 ? { calls } : {}) };
}
