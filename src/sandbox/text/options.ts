import { optionalBoolean, optionalObject, optionalString } from '../body.js';
import type { TextModel } from '../catalog/text-models.js';
import { badRequest } from '../errors.js';

const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export interface ReasoningOptions {
  reasoningOff: boolean;
  excludeReasoning: boolean;
}

/** `reasoning_effort`, `reasoning.effort` and `reasoning.exclude` (spec 2 §4.2). */
export function readReasoning(body: Record<string, unknown>): ReasoningOptions {
  const effort = optionalString(body, 'reasoning_effort', EFFORTS);
  const reasoning = optionalObject(body, 'reasoning') ?? {};
  const nestedEffort = optionalString(reasoning, 'effort', EFFORTS);
  return {
    reasoningOff: (effort ?? nestedEffort) === 'none',
    excludeReasoning: optionalBoolean(reasoning, 'exclude') === true,
  };
}

/** `caching: true` or `prompt_caching.enabled` (alias `promptCaching`); fails when the model cannot cache. */
export function readCaching(
  body: Record<string, unknown>,
  model: TextModel,
  suffixCaching: boolean,
): boolean {
  const flag = optionalBoolean(body, 'caching') === true;
  const settings = optionalObject(body, 'prompt_caching') ?? optionalObject(body, 'promptCaching');
  // The TTL changes nothing in the sandbox, but a bad value is still a 400.
  if (settings) optionalString(settings, 'ttl', ['5m', '1h']);
  const enabled = flag || suffixCaching || (settings ? optionalBoolean(settings, 'enabled') === true : false);
  if (enabled && !model.caching) {
    throw badRequest(
      `No provider of "${model.id}" supports prompt caching; drop caching or pick another model.`,
      'model_not_available',
      'model',
    );
  }
  return enabled;
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
