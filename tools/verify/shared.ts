import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { isEnclaveModel, TEE_MODEL_PREFIX } from '../../src/tee/index.js';
import { TenantCache } from '../../src/tenant-cache.js';

/**
 * Validated with `schema` like any output field, but listed in tools/list as `{}`: its shape is in
 * the result's text and the README, and every listed token is paid by every user on every turn.
 */
export const unlisted = <S extends z.ZodType>(schema: S) =>
  z.custom<z.infer<S>>((value) => schema.safeParse(value).success, 'does not match its schema');

/** One check as results show it: what was compared, or why it was not. */
export const CheckOut = z.object({
  id: z.string(),
  status: z.enum(['passed', 'failed', 'not_checked']),
  reason: z.string(),
});
export type CheckOut = z.infer<typeof CheckOut>;
/** Every check, in order: passed, failed, or not checked with the reason. */
export const Checks = unlisted(z.array(CheckOut));
/** The ids of the failed checks. */
export const Failed = unlisted(z.array(z.string()));

/**
 * Whose session state this is. The tool context names no tenant, so it is derived the way the
 * HTTP server derives one (the fingerprint of the caller's API key: one key, one tenant), with
 * the platform's address and kind: evidence from one platform says nothing about another, and an
 * address proved with the sandbox's roots trusted holds only against the sandbox.
 */
export function tenantOf(ctx: Pick<ToolContext, 'api' | 'credentials' | 'target'>): string {
  const key = ctx.credentials.get('api_key')?.value ?? '';
  return createHash('sha256').update(`${ctx.target.kind}\n${ctx.api.baseUrl}\n${key}`).digest('hex');
}

/** A signing address an attestation verified, for later signatures of the same model. */
export interface AttestedKey {
  address: string;
  /** When the attestation was made (ISO time). */
  at: string;
}

/**
 * Verified signing addresses, per tenant and model, for the session: an enclave's key lives as
 * long as the enclave, so an hour is a safe reuse, and a signature that does not recover to a
 * cached address is checked against a fresh attestation before it counts as a failure.
 */
export const attestedKeys = new TenantCache<AttestedKey>({ perTenant: 64, total: 4_096, ttlMs: 3_600_000 });

/** The exact bytes of one request this server made to an enclave model. */
export interface Exchange {
  model: string;
  request: Uint8Array;
  response: Uint8Array;
}

/** How long, and how many per key, enclave exchanges are kept for tee_verify. */
export const EXCHANGE_LIFETIME_MIN = 30;
const EXCHANGES_PER_KEY = 100;

/**
 * Exchanges this server made with enclave models, per tenant and request id, so that tee_verify
 * can bind a signature to the bytes. Short-lived and bounded: they hold prompts and answers.
 */
export const exchanges = new TenantCache<Exchange>({
  perTenant: EXCHANGES_PER_KEY,
  total: 2_000,
  ttlMs: EXCHANGE_LIFETIME_MIN * 60_000,
  weigh: (exchange) => exchange.request.length + exchange.response.length,
  maxTenantWeight: 16 * 1_048_576,
  maxTotalWeight: 128 * 1_048_576,
});

/** Why a request id may have no bytes here, said when tee_verify cannot find them. */
export const NOT_HELD = `it was not made by this server, it is older than ${EXCHANGE_LIFETIME_MIN} minutes or past the last ${EXCHANGES_PER_KEY} kept per key, or another replica made it (each keeps its own)`;

/** The caller's model, refused before sending when it is not an enclave model (spec 2 §4.12). */
export function enclaveModel(model: string): string {
  if (isEnclaveModel(model)) return model;
  throw new InputError(
    `"${model}" is not an enclave model: attestation exists only for ids starting with ${TEE_MODEL_PREFIX}.`,
    {
      param: 'model',
      fix: `Pass an id starting with ${TEE_MODEL_PREFIX} (models_list with filter "${TEE_MODEL_PREFIX}").`,
    },
  );
}

/** One line per check that did not pass, and the passed ones by name. */
export function checksText(checks: readonly CheckOut[]): string {
  const passed = checks.filter((c) => c.status === 'passed').map((c) => c.id);
  const lines = passed.length ? [`passed: ${passed.join(', ')}`] : [];
  for (const c of checks) {
    if (c.status === 'failed') lines.push(`FAILED ${c.id}: ${c.reason}`);
  }
  for (const c of checks) {
    if (c.status === 'not_checked') lines.push(`not checked ${c.id}: ${c.reason}`);
  }
  return lines.join('\n');
}
