import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import {
  type AttestationVerdict,
  isEnclaveModel,
  newNonce,
  PINNED_ROOTS,
  TEE_MODEL_PREFIX,
  type TrustedRoots,
  verifyAttestation,
} from '../../src/tee/index.js';
import { fetchCatalog } from '../models/shared.js';
import { type AttestedKey, attestedKeys, tenantOf } from './shared.js';

/**
 * `GET /api/v1/tee/attestation` (spec 2 §4.12; fields from GAPS.md). Checked leniently here, so a
 * broken part of the evidence becomes a failed check with its reason; a field of the wrong type
 * is a reply that breaks the spec, named at the boundary.
 */
export const AttestationReply = z.looseObject({
  signing_address: z.string().optional(),
  signing_algo: z.string().optional(),
  nonce: z.string().optional(),
  request_nonce: z.string().optional(),
  intel_quote: z.string().optional(),
  nvidia_payload: z.unknown().optional(),
});

const Anchor = z.object({ name: z.string(), pem: z.string() });
/** The sandbox's control route `GET /__sandbox/tee/roots`. */
const SandboxRoots = z.object({ intel: z.array(Anchor), nvidia: z.array(Anchor) });

export interface Attestation {
  model: string;
  verdict: AttestationVerdict;
  /** True when the sandbox's own roots were trusted too (only ever against the sandbox). */
  sandboxRoots: boolean;
}

type Scope = Pick<ToolContext, 'api' | 'credentials' | 'target'>;

/**
 * Asks for a fresh attestation (a new 32-byte nonce), checks it offline, and keeps the signing
 * address for the session when it verified; a failed attestation forgets any address kept before.
 */
export async function attest(ctx: Scope, model: string): Promise<Attestation> {
  const nonce = newNonce();
  const [reply, trust] = await Promise.all([
    ctx.api.request({
      method: 'GET',
      path: '/api/v1/tee/attestation',
      query: { model, nonce },
      credential: 'optional',
      schema: AttestationReply,
    }),
    trustedRoots(ctx),
  ]);
  const verdict = verifyAttestation(reply.data, { nonce, roots: trust.roots });
  const keys = attestedKeys.forTenant(tenantOf(ctx));
  if (verdict.verified && verdict.signingAddress) {
    keys.set(model, { address: verdict.signingAddress, at: new Date().toISOString() });
  } else {
    keys.delete(model);
  }
  return { model, verdict, sandboxRoots: trust.sandbox };
}

/** The address a verified attestation of this model proved earlier in the session, if any. */
export function cachedKey(ctx: Scope, model: string): AttestedKey | undefined {
  return attestedKeys.forTenant(tenantOf(ctx)).get(model);
}

/**
 * The vendors' pinned roots; against the sandbox (and only there) also the sandbox's own roots,
 * read from its control route: they prove the checks run, nothing about real hardware.
 */
async function trustedRoots(ctx: Scope): Promise<{ roots: TrustedRoots; sandbox: boolean }> {
  if (ctx.target.kind !== 'sandbox') return { roots: PINNED_ROOTS, sandbox: false };
  const { data } = await ctx.api.request({
    method: 'GET',
    path: ctx.target.teeRootsPath,
    credential: 'none',
    schema: SandboxRoots,
  });
  return {
    roots: {
      intel: [...PINNED_ROOTS.intel, ...data.intel],
      nvidia: [...PINNED_ROOTS.nvidia, ...data.nvidia],
    },
    sandbox: true,
  };
}

/** The first enclave model of the text catalog. */
export async function defaultEnclaveModel(ctx: Scope): Promise<string> {
  const models = await fetchCatalog(ctx.api, 'text');
  const first = models.find((model) => isEnclaveModel(model.id));
  if (first) return first.id;
  throw new InputError(
    `The platform's catalog lists no enclave model (ids starting with ${TEE_MODEL_PREFIX}).`,
    {
      param: 'model',
      fix: `Pass model with an enclave model id, if you know one; otherwise this platform offers none.`,
    },
  );
}
