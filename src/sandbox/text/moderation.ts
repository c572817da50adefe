import type { Context } from 'hono';
import { charge } from '../billing.js';
import { badRequest } from '../errors.js';
import { violatesPolicy } from '../media/policy.js';
import type { KeyRecord } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/**
 * The opt-in `moderation` header (spec 2 §4.2, §4.6): a paid input-safety preflight. The spec does
 * not list its values; the sandbox takes true/false forms or the id of its moderation model. The
 * fee is charged even when the input is flagged (spec 1 §7.2: the generation is not).
 */
const MODERATION_FEE_USD = 0.0002;
const MODERATION_MODEL = 'sandbox/moderation';
const ON = ['true', '1', 'on', 'yes', 'enabled', MODERATION_MODEL];
const OFF = ['false', '0', 'off', 'no', 'none', 'disabled'];

/** Runs the preflight when the header asks for it; returns the fee charged (0 when off). */
export function moderate(c: Context<SandboxEnv>, ctx: SandboxContext, key: KeyRecord, input: string): number {
  const value = c.req.header('moderation')?.trim().toLowerCase();
  if (value === undefined || OFF.includes(value)) return 0;
  if (!ON.includes(value)) {
    throw badRequest(
      `The moderation header takes true, false or "${MODERATION_MODEL}".`,
      'invalid_parameter_value',
      'moderation',
    );
  }
  if (!input.trim())
    throw badRequest(
      'Moderation was asked for but the input has no text to check.',
      'empty_moderation_input',
    );
  charge(ctx, key, MODERATION_FEE_USD);
  if (violatesPolicy(input)) {
    throw badRequest(
      `The input was flagged by the moderation preflight; its ${MODERATION_FEE_USD} USD fee was charged, the generation was not.`,
      'content_policy_violation',
    );
  }
  return MODERATION_FEE_USD;
}
