import type { Hono } from 'hono';
import { charge, requireKey } from '../billing.js';
import { jsonBody, optionalNumber, optionalString } from '../body.js';
import { EMBEDDING_MODELS, type EmbeddingModel } from '../catalog/media-models.js';
import { PRICING_FIELD } from '../constants.js';
import { embedText, toBase64 } from '../embeddings/vectors.js';
import { badRequest } from '../errors.js';
import { estimateTokens } from '../text/tokens.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { roundUsd } from '../util.js';

/** Spec 2 §4.10, §8: up to 2048 inputs per request. */
export const MAX_EMBEDDING_INPUTS = 2048;

/** Embeddings (spec 2 §4.10): vectors by input index, `dimensions` on reducible models, base64 bytes. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.post('/api/v1/embeddings', (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const model = findModel(body.model);
    const inputs = readInputs(body.input, model);
    const dimensions = readDimensions(body, model);
    const encoding = optionalString(body, 'encoding_format', ['float', 'base64']) ?? 'float';
    const tokens = inputs.reduce((sum, text) => sum + estimateTokens(text), 0);
    const cost = roundUsd((tokens * model.price_per_million) / 1e6);
    charge(ctx, key, cost);
    return c.json({
      object: 'list',
      data: inputs.map((text, index) => {
        const vector = embedText(text, dimensions, model.id);
        return {
          object: 'embedding',
          index,
          embedding: encoding === 'base64' ? toBase64(vector) : Array.from(vector),
        };
      }),
      model: model.id,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
      [PRICING_FIELD]: { amount: cost, currency: 'USD', cost, paymentSource: 'USD', inputTokens: tokens },
    });
  });
}

function findModel(id: unknown): EmbeddingModel {
  if (typeof id !== 'string' || !id) {
    throw badRequest(
      `\`model\` is required: one of ${EMBEDDING_MODELS.map((m) => m.id).join(', ')}.`,
      'missing_required_parameter',
      'model',
    );
  }
  const model = EMBEDDING_MODELS.find((m) => m.id === id);
  if (!model) {
    throw badRequest(
      `Embedding model "${id}" not found; list them with GET /api/v1/embedding-models.`,
      'model_not_found',
      'model',
    );
  }
  return model;
}

function readInputs(input: unknown, model: EmbeddingModel): string[] {
  if (input === undefined || input === null) {
    throw badRequest(
      '`input` is required: a string or an array of strings.',
      'missing_required_parameter',
      'input',
    );
  }
  const list = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(list) || list.length === 0) {
    throw badRequest(
      '`input` must be a string or a non-empty array of strings.',
      'invalid_parameter_value',
      'input',
    );
  }
  if (list.length > MAX_EMBEDDING_INPUTS) {
    throw badRequest(
      `\`input\` has ${list.length} items; at most ${MAX_EMBEDDING_INPUTS} per request. Split it into batches.`,
      'invalid_parameter_value',
      'input',
    );
  }
  return list.map((text, i) => {
    if (typeof text !== 'string' || !text.trim()) {
      throw badRequest(`\`input[${i}]\` must be a non-empty string.`, 'invalid_parameter_value', 'input');
    }
    if (estimateTokens(text) > model.max_input_tokens) {
      throw badRequest(
        `\`input[${i}]\` is about ${estimateTokens(text)} tokens; ${model.id} takes at most ${model.max_input_tokens}.`,
        'context_length_exceeded',
        'input',
      );
    }
    return text;
  });
}

function readDimensions(body: Record<string, unknown>, model: EmbeddingModel): number {
  if (body.dimensions === undefined || body.dimensions === null) return model.dimensions;
  if (!model.supports_dimensions) {
    const reducible = EMBEDDING_MODELS.filter((m) => m.supports_dimensions).map((m) => m.id);
    throw badRequest(
      `${model.id} does not support \`dimensions\`; leave it out, or use a model that does: ${reducible.join(', ')}.`,
      'invalid_parameter_value',
      'dimensions',
    );
  }
  return (
    optionalNumber(body, 'dimensions', { min: 1, max: model.dimensions, integer: true }) ?? model.dimensions
  );
}
