import { optionalBoolean, optionalObject, optionalString } from '../body.js';
import type { TextModel } from '../catalog/text-models.js';
import { badRequest } from '../errors.js';

const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type Effort = (typeof EFFORTS)[number];

export interface ReasoningOptions {
  reasoningOff: boolean;
  excludeReasoning: boolean;
  effort?: Effort;
}

/** `reasoning_effort`, `reasoning.effort` and `reasoning.exclude` (spec 2 §4.2). */
export function readReasoning(body: Record<string, unknown>): ReasoningOptions {
  const effort = optionalString(body, 'reasoning_effort', EFFORTS);
  const reasoning = optionalObject(body, 'reasoning') ?? {};
  const nestedEffort = optionalString(reasoning, 'effort', EFFORTS);
  const chosen = effort ?? nestedEffort;
  return {
    reasoningOff: chosen === 'none',
    excludeReasoning: optionalBoolean(reasoning, 'exclude') === true,
    ...(chosen ? { effort: chosen } : {}),
  };
}

/** `service_tier`: the default tiers or one the model lists in `supported_service_tiers`. */
export function readServiceTier(body: Record<string, unknown>, model: TextModel): string | undefined {
  const tier = optionalString(body, 'service_tier');
  if (tier === undefined || ['auto', 'default', 'standard'].includes(tier)) return tier;
  if (!model.supported_service_tiers.includes(tier)) {
    throw badRequest(
      `service_tier "${tier}" is not offered by "${model.id}"; it accepts ${['auto', 'default', ...model.supported_service_tiers].join(', ')}.`,
      'invalid_parameter_value',
      'service_tier',
    );
  }
  return tier;
}

/** `stop` (chat: a string or up to 4 strings) and `stop_sequences` (messages: a string array). */
export function stopSequences(
  body: Record<string, unknown>,
  name: 'stop' | 'stop_sequences',
): string[] | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  const list = name === 'stop' && typeof value === 'string' ? [value] : value;
  const max = name === 'stop' ? 4 : Number.POSITIVE_INFINITY;
  if (
    !Array.isArray(list) ||
    list.length > max ||
    !list.every((s) => typeof s === 'string' && s.length > 0)
  ) {
    throw badRequest(
      `\`${name}\` must be ${name === 'stop' ? 'a string or up to 4 strings' : 'an array of strings'}.`,
      'invalid_parameter_value',
      name,
    );
  }
  return list as string[];
}
